# The reference server as a container image: for CI service containers and one shared test server.
#   docker build -t basekit-server .                 (from the repository root)
#   docker run --rm -p 3000:3000 basekit-server      (state in the /data volume)
#   docker run --rm -p 3000:3000 -v "$PWD/basekit.json:/config.json:ro" basekit-server --config /config.json --data-dir /data
# Arguments after the image name replace the default `--data-dir /data`; the port is the PORT variable (3000).
# Behind a proxy that intercepts TLS, give npm its CA certificates (PEM) for the build only, never kept in the image:
#   docker build --build-arg EXTRA_CA_CERTS="$(cat proxy-ca.pem)" -t basekit-server .

# Stage 1: the engine, the SDK (the server's testing helpers use its admin client) and the server packed from this
# repository, exactly as npm would publish them, then installed from the tarballs into /opt/basekit as an npm user
# installs them; one step, so that its layer keeps only that. The three workspaces' own dependencies, and the private
# panel workspace's (the server's prepack builds the panel into it), are all their packing needs (the repository's
# other tools stay out).
FROM node:20-bookworm-slim AS build
ARG EXTRA_CA_CERTS=""
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /repo
COPY . .
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" > /tmp/extra-ca.pem; export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && npm ci --ignore-scripts --no-audit --no-fund -w packages/engine -w packages/sdk -w packages/panel -w mock-server \
 && mkdir /packs \
 && npm pack --pack-destination /packs -w packages/engine -w packages/sdk -w mock-server \
 && mkdir /opt/basekit && cd /opt/basekit \
 && echo '{"name":"basekit-image","version":"1.0.0","private":true,"type":"module"}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /packs/*.tgz \
 && rm -rf /repo /packs /root/.npm /tmp/extra-ca.pem

# Stage 2: Debian's ffmpeg and the installed server, run by a user without root.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown node:node /data
WORKDIR /opt/basekit
COPY --from=build /opt/basekit ./
COPY docker/healthcheck.mjs ./
ENV PATH=/opt/basekit/node_modules/.bin:$PATH PORT=3000 NODE_ENV=production
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["node", "/opt/basekit/healthcheck.mjs"]
ENTRYPOINT ["basekit-server", "--host", "0.0.0.0"]
CMD ["--data-dir", "/data"]
