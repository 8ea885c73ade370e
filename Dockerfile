# syntax=docker/dockerfile:1
# The desk bot, built once and run as built (README "Container image").
# Node 26 is the newest LTS line (Active LTS since October 2026; 24 is in maintenance until April 2028).
# Slim Debian (trixie): glibc, as the binaries in the lock file (esbuild) expect, and apt for tini.
ARG NODE_IMAGE=node:26-trixie-slim

# ---- build: every dependency, compile to dist/, then drop the development dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: dist/, the production dependencies and the manifest; nothing else ----
FROM ${NODE_IMAGE}
# tini as PID 1: signals reach the bot (it stops cleanly on SIGTERM) and zombies are reaped.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
# HEALTH_HOST: inside the container every interface is the container's own; what the host exposes
# is decided where the port is published (compose.yaml publishes it to the host's loopback only).
ENV NODE_ENV=production \
    HEALTH_PORT=9090 \
    HEALTH_HOST=0.0.0.0
WORKDIR /app
# Root-owned and read-only for the bot: it can write only its data folder.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY manifests ./manifests
RUN mkdir data && chown node:node data
USER node
# The file store (DATA_DIR defaults to ./data): requests, history and the audit log. Keep it.
VOLUME ["/app/data"]
# PORT: Slack's requests in HTTP mode (unused in Socket Mode); HEALTH_PORT: /healthz, /readyz, /metrics.
EXPOSE 3000 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.HEALTH_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
