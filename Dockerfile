# svc serve in a container: the REST API and executions on the embedded SQLite store, whose file
# lives on the /data volume. Build: docker build -t svc .   Run: docker run -p 8080:8080 -v svc-data:/data svc

# Build stage: a C toolchain for better-sqlite3 and the execution log's addon, then TypeScript.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# `npm install` rather than `npm ci`, as in .ci/run: the lockfile records this platform's optional
# packages only. Locked versions still hold.
RUN npm install --no-audit --no-fund \
  && npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && mkdir -p packages/engine/build/Release

# Runtime stage: no compiler, no sources, no dev dependencies; runs as the unprivileged `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    SVC_DB=/data/svc.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/engine/package.json ./packages/engine/
COPY --from=build /app/packages/engine/dist ./packages/engine/dist
COPY --from=build /app/packages/engine/build/Release ./packages/engine/build/Release
COPY --from=build /app/packages/discovery/package.json ./packages/discovery/
COPY --from=build /app/packages/discovery/dist ./packages/discovery/dist
COPY --from=build /app/packages/gateway/package.json ./packages/gateway/
COPY --from=build /app/packages/gateway/dist ./packages/gateway/dist
COPY --from=build /app/packages/gateway/bin ./packages/gateway/bin
COPY --from=build /app/packages/mcp/package.json ./packages/mcp/
COPY --from=build /app/packages/mcp/dist ./packages/mcp/dist
COPY --from=build /app/packages/mcp/bin ./packages/mcp/bin
# The web app that `svc serve` serves at /.
COPY --from=build /app/packages/web/dist ./packages/web/dist
# The store's file, its WAL and its execution log all live under /data, owned by `node`.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "packages/gateway/bin/svc.js"]
# 0.0.0.0: inside a container the loopback default would refuse every connection from outside.
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
