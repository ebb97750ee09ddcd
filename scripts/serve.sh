#!/usr/bin/env bash
# Builds the lab and serves it on localhost, rebuilding on every change.
# Installs what serving needs when it is missing (scripts/setup.sh serve).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

step bash scripts/setup.sh serve
PORT=${PORT:-8080}
echo "[serve] the lab will be at http://127.0.0.1:$PORT/ (Ctrl-C stops it)" >&2
# A release build: the lab as students should feel it (a debug build is several times slower).
exec trunk serve --release --address 127.0.0.1 --port "$PORT" "$@"
