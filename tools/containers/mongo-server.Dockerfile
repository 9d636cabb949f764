# The embedded MongoDB-compatible server of the dev stack (mongo-java-server with its H2 backend and
# Haven's launcher, tools/infra/mongo-server) on the JRE base. Data: /data/db (a volume in compose).
ARG BASE_IMAGE=haven/jre:17
FROM ${BASE_IMAGE}
COPY libs/ /opt/mongo-server/libs/
COPY classes/ /opt/mongo-server/classes/
RUN groupadd --gid 1000 mongo && useradd --uid 1000 --gid 1000 --no-create-home --shell /usr/sbin/nologin mongo \
    && mkdir -p /data/db && chown 1000:1000 /data/db
USER 1000:1000
VOLUME /data/db
EXPOSE 27017
HEALTHCHECK --interval=5s --timeout=5s --start-period=30s --retries=12 CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/27017"]
CMD ["java", "-Xms64m", "-Xmx512m", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", \
     "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", "/opt/mongo-server/libs/*:/opt/mongo-server/classes", \
     "HavenMongoServer", "0.0.0.0", "27017", "/data/db/haven.mv.db"]
