#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages given as arguments when they are missing (as root, or with sudo).
set -euo pipefail
need=()
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0
as_root=""
[ "$(id -u)" -ne 0 ] && as_root="sudo"
echo "installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -q
$as_root apt-get install -y -q --no-install-recommends "${need[@]}"
