# syntax=docker/dockerfile:1
#
# RewardLoop: a multi-stage image on the official Node.js 24 slim image (Debian).
#
#   docker build -t rewardloop .
#   docker run --rm -p 3000:3000 \
#     -e SESSION_SECRET="$(openssl rand -hex 32)" \
#     -e TOKEN_ENCRYPTION_KEY="$(openssl rand -base64 32)" \
#     -e APP_URL=https://rewards.example.com \
#     -e DATABASE_URL=postgresql://user:pass@db:5432/rewardloop \
#     -e SMTP_URL=smtps://user:pass@smtp.example.com:465 \
#     rewardloop
#
# Production config (server/config.ts validates it at start and names any bad variable):
#   SESSION_SECRET  required, at least 32 characters.
#   TOKEN_ENCRYPTION_KEY  required: 32 bytes base64, encrypts Square tokens at rest.
#   SMTP_URL        required unless ALLOW_DEMO_ADAPTERS=true (then mail goes to $DATA_DIR/outbox).
#   DATABASE_URL    required in practice: a PostgreSQL server (compose.yaml runs one beside the
#                   app). Without it the app starts the embedded PostgreSQL of `npm run dev` under
#                   $DATA_DIR/postgres, which is meant for laptops, not containers.
#   APP_URL         the public origin, used in email links and accepted by the Origin check on
#                   POSTs.
#   TRUST_PROXY     default loopback. Behind a reverse proxy or load balancer, set its hop count
#                   or subnet (e.g. 1, 172.16.0.0/12): through published ports even a proxy on
#                   the same host is not loopback here, and the per-IP rate limits need the
#                   client's address from X-Forwarded-For.
# See .env.example for every variable, and docs/architecture.md ("Running in a container").

# ---------------------------------------------------------------------------------------------
# deps: every dependency, dev ones included, because the build needs Vite, Remix dev and Tailwind.
# The `node` devDependency's install script downloads a pinned Node 24 binary into
# node_modules/.bin. On this image that is redundant but harmless: the npm scripts run on it and
# its guard (scripts/check-node.mjs) passes.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# build: the Remix/Vite build. build/server/index.js is the server bundle; build/client holds the
# browser assets and public/.
FROM deps AS build
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------
# prod-deps: production dependencies only. --omit=dev also drops the pinned `node` package, so the
# runtime uses the image's own Node 24. No production dependency has an install script.
# @node-rs/argon2 installs its prebuilt linux-*-gnu binary, so nothing is compiled.
FROM node:24-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# runtime
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app

# The server runs `node server/index.ts` with Node 24's type stripping, so it needs the TypeScript
# sources it imports at run time: server/, modules/, adapters/, migrations/. It also needs cli/
# for reward-cli, scripts/ for the Node guard, and package.json for "type": "module".
# app/ is not needed: the Remix build in build/ already contains it.
#
# Nothing the production process loads comes from devDependencies:
#  - server/index.ts imports `vite` only when NODE_ENV is not production;
#  - pino-pretty is used only for a development TTY;
#  - build/server/index.js imports only production packages.
# Keep NODE_ENV=production: `vite` and pino-pretty are not installed in this image.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
COPY --from=build /app/modules ./modules
COPY --from=build /app/adapters ./adapters
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/cli ./cli
COPY --from=build /app/scripts ./scripts

# The image build fails if this base image is not Node 24. The code stays owned by root and
# read-only to the app; only DATA_DIR is writable (uploads, mail outbox).
RUN node scripts/check-node.mjs \
 && mkdir -p /data \
 && chown node:node /data

USER node
EXPOSE 3000

# /readyz: 200 when the database answers, migrations are applied and the job queue runs; 503 while
# draining after SIGTERM (/healthz only says the process is alive). The start period covers migrations.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server applies pending migrations at start (createRoot with migrate: true), then listens.
# Node is PID 1 and handles SIGTERM: it closes the HTTP server, the job queue and the ORM.
#
# To migrate as a separate release step, for example before rolling out several replicas on one
# DATABASE_URL, run reward-cli in a one-off container of the same image. Give it the server's
# environment: it builds the same composition root, so production needs SESSION_SECRET and
# TOKEN_ENCRYPTION_KEY, plus
# SMTP_URL or ALLOW_DEMO_ADAPTERS=true.
#   docker run --rm --env-file prod.env rewardloop node cli/bin.mjs db migrate
# or, with compose.yaml: docker compose run --rm app node cli/bin.mjs db migrate
CMD ["node", "server/index.ts"]
