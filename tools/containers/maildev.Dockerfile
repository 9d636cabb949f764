# The mail catcher (maildev, from its npm package) on Haven's Node image. SMTP 1025, web/API 1080.
ARG NODE_IMAGE=haven/node:24
FROM ${NODE_IMAGE}
COPY node_modules/ /opt/maildev/node_modules/
USER 1000:1000
ENV MAILDEV_SMTP_PORT=1025 MAILDEV_WEB_PORT=1080
EXPOSE 1025 1080
HEALTHCHECK --interval=5s --timeout=5s --start-period=10s --retries=12 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:1080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "/opt/maildev/node_modules/maildev/bin/maildev"]
