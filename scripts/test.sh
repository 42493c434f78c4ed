#!/usr/bin/env bash
# One command from a fresh clone to the whole test suite (README; .ci/run calls exactly this):
# installs what the tests need (ffmpeg, PocketSphinx, chromium, bzip2, PostgreSQL on 127.0.0.1:5432
# with a database `test`, the Node dependencies), then type-checks, lints (ESLint) and runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(ffmpeg pocketsphinx pocketsphinx-en-us chromium bzip2 util-linux)
command -v pg_ctlcluster >/dev/null 2>&1 || packages+=(postgresql)
bash scripts/install-system-packages.sh "${packages[@]}"

# PostgreSQL with trust auth on 127.0.0.1:5432 and a database named test (started if down).
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432
if ! psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1; then
  psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE test'
fi

npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npm test
