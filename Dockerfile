# One image for API and worker nodes; the command picks the role.
# Node.js 24 LTS, the version CI tests on (scripts/install-node24.sh); Node 22 is supported too.
FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# Debian's Chromium prints submission PDFs (playwright-core drives it; it never downloads a browser).
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# patch-package (postinstall, run by npm ci) applies patches/: the postgres driver's handling of dropped
# connections, and Hono's compose settling synchronous layers synchronously (README "Runtime").
COPY patches ./patches
RUN npm ci --omit=dev --ignore-scripts=false && npm cache clean --force
COPY api ./api
COPY web ./web
COPY activities ./activities
COPY db ./db
COPY domain ./domain
COPY integrations ./integrations
COPY services ./services
COPY workers ./workers
COPY workflows ./workflows
COPY tsconfig.json ./
USER node
# 3000: the API; 9464: Prometheus metrics (setting `metrics.port`).
EXPOSE 3000 9464
# The entry point is PID 1 under `node --import tsx`: its SIGTERM handler stops it in order. Under the
# tsx CLI (or npm), a parent relays the signal, and tsx SIGKILLs a child that does not answer it within
# about 60 ms (a busy event loop), skipping the drain (test/unit/deploy/entry-commands.test.ts).
CMD ["node", "--import", "tsx", "workers/api.ts"]
