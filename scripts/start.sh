#!/usr/bin/env bash
# One command from a fresh clone to a running service with embedded defaults (README quick start):
# installs the system packages (ffmpeg, PocketSphinx and its English model, bzip2, util-linux: its
# setpriv ends the service's child processes with it) and the Node dependencies when they are
# missing, then runs `npm start` (API on :8080, worker, PGlite in ./data).
# Without a model in ./models and without ASR_BASE_URL, `npm start` answers at once on PocketSphinx
# and installs the recommended CPU model in a background process, used from the next start; when
# the release host does not answer within 5 s it says so in one line and carries on
# (docs/recognition.md, "First start"; MODELS_AUTO_INSTALL=0 turns it off).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-packages.sh ffmpeg pocketsphinx pocketsphinx-en-us bzip2 util-linux
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec npm start
