# The apps' production dependencies (from package-lock.json, no dev dependencies) on Haven's Node
# image: the layer the six app images of tools/docker/Dockerfile share. Staged by images.ts.
ARG NODE_IMAGE=haven/node:24
FROM ${NODE_IMAGE}
COPY node_modules/ /app/node_modules/
