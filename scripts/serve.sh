#!/usr/bin/env bash
# Builds the lab and serves it on localhost, rebuilding on every change. The page is served as
# it ships, without Trunk's live-reload script (which would retry a WebSocket every few seconds
# once the server stops); `--reload` puts it back for working on the lab.
# Installs what serving needs when it is missing (scripts/setup.sh serve).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

step bash scripts/setup.sh serve
# The port and address: PORT and ADDRESS, or `--port N` and `--address A` among the flags
# (taken out here, since trunk refuses a flag given twice); every other flag goes to trunk.
PORT=${PORT:-8080}
ADDRESS=${ADDRESS:-127.0.0.1}
rest=()
reload=()
reload_script=false
while (($#)); do
  case "$1" in
    --reload) reload_script=true; shift ;;
    --port | --address)
      (($# >= 2)) || { echo "[serve] $1 needs a value" >&2; exit 2; }
      if [[ $1 == --port ]]; then PORT=$2; else ADDRESS=$2; fi
      shift 2
      ;;
    --port=*) PORT=${1#*=}; shift ;;
    --address=*) ADDRESS=${1#*=}; shift ;;
    *) rest+=("$1"); shift ;;
  esac
done
# Something already answering there (another lab, another server) would stop trunk after its
# build with a bare "Address already in use": say so first, and what to do.
probe=$ADDRESS
[[ $probe == 0.0.0.0 ]] && probe=127.0.0.1
if (exec 3<>"/dev/tcp/$probe/$PORT") 2>/dev/null; then
  echo "[serve] port $PORT is taken on $ADDRESS (is the lab already running?): stop that, or run scripts/serve.sh --port $((PORT + 1))" >&2
  exit 1
fi
echo "[serve] the lab will be at http://$ADDRESS:$PORT/ (Ctrl-C stops it)" >&2
# A release build: the lab as students should feel it (a debug build is several times slower).
[[ $reload_script == true ]] || reload=(--no-autoreload)
exec trunk serve --release ${reload[@]+"${reload[@]}"} --address "$ADDRESS" --port "$PORT" ${rest[@]+"${rest[@]}"}
