#!/usr/bin/env bash
# One command from a fresh clone to a running service with embedded defaults (README quick start):
# installs the system packages (ffmpeg, PocketSphinx and its English model, bzip2) and the Node
# dependencies when they are missing, then runs `npm start` (API on :8080, worker, PGlite in ./data).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-packages.sh ffmpeg pocketsphinx pocketsphinx-en-us bzip2
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec npm start
