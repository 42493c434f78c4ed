# One image for every role: the API (`npm start` with WORKER_CONCURRENCY=0), the workers
# (`npm run worker`) and the Telegram bot (`npm run bot`). See docs/deployment.md.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us bzip2 util-linux ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/package.json
COPY apps/api/package.json apps/api/package.json
COPY apps/bot/package.json apps/bot/package.json
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# Run as the unprivileged `node` user; /data (DATA_DIR) and /models (MODELS_DIR) are volumes it owns.
# node_modules/.cache/transcribe-entries: where scripts/launch/ keeps the built entries (written at the first start).
RUN mkdir -p /data /models node_modules/.cache/transcribe-entries && chown node:node /data /models node_modules/.cache/transcribe-entries
USER node
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data MODELS_DIR=/models
VOLUME ["/data", "/models"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# tini is PID 1: it passes SIGTERM (docker stop) to node and reaps the ffmpeg and pocketsphinx
# children; node runs without npm in between, so the signal reaches the service itself.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/launch/launch-entry.mjs", "apps/api/src/main.ts"]
