# Kafka in KRaft mode (one node, broker and controller) from the Maven jars the dev stack fetches
# (tools/infra/kafka/pom.xml), on the JRE base. Configured like the apache/kafka image: every
# KAFKA_FOO_BAR variable becomes foo.bar in server.properties; CLUSTER_ID names the cluster.
ARG BASE_IMAGE=haven/jre:17
FROM ${BASE_IMAGE}
COPY libs/ /opt/kafka/libs/
COPY kafka-entrypoint.sh /opt/kafka/bin/kafka-entrypoint.sh
RUN groupadd --gid 1000 kafka && useradd --uid 1000 --gid 1000 --no-create-home --shell /usr/sbin/nologin kafka \
    && mkdir -p /var/lib/kafka/data /opt/kafka/config && chown -R 1000:1000 /var/lib/kafka /opt/kafka/config \
    && chmod 755 /opt/kafka/bin/kafka-entrypoint.sh
USER 1000:1000
VOLUME /var/lib/kafka/data
EXPOSE 9092
CMD ["/opt/kafka/bin/kafka-entrypoint.sh"]
