# The reference server as a container image: for CI service containers and one shared test server.
#   docker build -t basekit-server .                 (from the repository root)
#   docker run --rm -p 3000:3000 basekit-server      (state in the /data volume)
#   docker run --rm -p 3000:3000 -v "$PWD/basekit.json:/config.json:ro" basekit-server --config /config.json --data-dir /data
# Arguments after the image name replace the default `--data-dir /data`; the port is the PORT variable (3000).

# Stage 1: the engine, the SDK (the server's testing helpers use its admin client) and the server packed from this
# repository, exactly as npm would publish them.
FROM node:20-bookworm-slim AS pack
WORKDIR /repo
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm pack --pack-destination /packs -w packages/engine -w packages/sdk -w mock-server

# Stage 2: Debian's ffmpeg and the packed server installed as an npm user installs it, run by a user without root.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/basekit
COPY --from=pack /packs /tmp/packs
COPY docker/healthcheck.mjs ./
RUN echo '{"name":"basekit-image","version":"1.0.0","private":true,"type":"module"}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /tmp/packs/*.tgz \
 && rm -rf /tmp/packs /root/.npm \
 && mkdir /data && chown node:node /data
ENV PATH=/opt/basekit/node_modules/.bin:$PATH PORT=3000 NODE_ENV=production
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["node", "/opt/basekit/healthcheck.mjs"]
ENTRYPOINT ["basekit-server", "--host", "0.0.0.0"]
CMD ["--data-dir", "/data"]
