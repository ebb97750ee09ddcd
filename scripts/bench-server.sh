#!/usr/bin/env bash
# The real server's figures, not a verdict: full MRTR round trips (call → input_required →
# retry → complete; HMAC; record in memory) from `mrtr bench` with 64 clients for 20 s each,
# in one run, against
#   - a server that answers at once (the load generator's own ceiling),
#   - `mrtr serve --http`,
#   - an official TypeScript SDK v2 server with createRequestStateCodec (the same tool),
#   - two `mrtr serve` replicas sharing a Redis record, the requests taking turns.
# Then the ratios the goal is stated in: mrtr's round trips per second over the SDK's (goal
# ≥ 5×) and its p99 over the SDK's (goal ≤ 1/3).
#
#   bash scripts/bench-server.sh            (SECONDS_EACH=5 for a quick look)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
EACH=${SECONDS_EACH:-20}
OUT=$ROOT/target/bench-server
rm -rf "$OUT" && mkdir -p "$OUT"
step cargo build --quiet --locked --profile bench-server -p mrtr
MRTR=$ROOT/target/bench-server/mrtr
trap stop_servers EXIT

bench() {
  "$MRTR" bench --seconds "$EACH" "$@" | tee -a "$OUT/figures.txt"
}

bench --instant --label "ceiling (answers at once)"
start_server "$OUT/mrtr.log" "$MRTR" serve --http 127.0.0.1:0 --quiet
bench "$URL" --label "mrtr serve"
start_server "$OUT/sdk.log" node tests/interop/sdk-server.mjs 0
bench "$URL" --label "SDK v2 server" --token none

if command -v redis-server >/dev/null; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no >"$OUT/redis.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  head -c 32 /dev/urandom >"$OUT/key"
  start_server "$OUT/a.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica A --key-file "$OUT/key" --record "redis://127.0.0.1:$port"
  a=$URL
  start_server "$OUT/b.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica B --key-file "$OUT/key" --record "redis://127.0.0.1:$port"
  bench --url "$a" --url "$URL" --label "2 replicas + Redis"
fi

python3 - "$OUT/figures.txt" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(.+?)\s+(\d+) round trips/s\s+p50\s+([\d.]+) ms\s+p99\s+([\d.]+) ms", line)
    if m:
        rows[m.group(1).strip()] = (float(m.group(2)), float(m.group(4)))
ours, sdk = rows.get("mrtr serve"), rows.get("SDK v2 server")
if ours and sdk and sdk[0] > 0 and sdk[1] > 0:
    print(f"mrtr serve / SDK v2: {ours[0] / sdk[0]:.1f}x the round trips per second (goal >= 5x), "
          f"p99 {ours[1] / sdk[1]:.2f} of the SDK's (goal <= 0.33)")
PY
