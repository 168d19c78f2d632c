# syntax=docker/dockerfile:1
# The Customer Portal as an image (README "Production"). One stage builds (all dependencies, `npm run build`, then the
# development ones pruned); the image takes only what runs: the build, the production dependencies and the start
# script, owned by root and run as the unprivileged user `node`. The root filesystem may be read-only: the portal
# writes only to /data (the SQLite database; nothing with DATABASE_URL) and to /tmp (the certificate archive's build
# files, removed at exit), which a read-only container mounts as a tmpfs (compose.yaml).
# test/reliability/release.test.ts runs the release as this file does: these COPY lines, ENV, USER and CMD.
# Both stages' Node is the version in .node-version (the test checks it).

FROM node:24.21.0-trixie-slim AS build
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24.21.0-trixie-slim
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/start.mjs /app/scripts/build-stamp.mjs ./scripts/
COPY --from=build /app/server/auth/idp/login.css ./server/auth/idp/
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready means the database answers (and, once started, the provider was found): 503 until then.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) ends it gracefully within SHUTDOWN_GRACE_SECONDS (8 s; docker waits 10 s by default).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=16", "--max-old-space-size=192", "scripts/start.mjs"]
