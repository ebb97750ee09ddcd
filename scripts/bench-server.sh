#!/usr/bin/env bash
# The real server's figures, not a verdict: full MRTR round trips (call → input_required →
# retry → complete; HMAC; a record of used tickets) from `mrtr bench` for 20 s each, in one
# run, against
#   - a server that answers at once (the load generator's own ceiling),
#   - `mrtr serve --http`, at 64 and 16 clients, with its log on (its cost), and with one
#     worker thread instead of one per core (the memory record's lock under contention),
#   - an rmcp 3.11 server (tests/probe/rmcp-server, `bench`: its RequestStateCodec verifying
#     with associated data, a used-ticket set, the same deploy tool), at 64 and 16 clients,
#   - an official TypeScript SDK v2 server with createRequestStateCodec, at 64 and 16 clients,
#   - two `mrtr serve` replicas sharing a Redis record, the requests taking turns.
# Then the ratios the goals are stated in: mrtr serve over rmcp (goal ≥ 1.5× the round trips,
# a p99 no higher) and over the SDK, and the log's cost (goal ≤ 10%).
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
step cargo build --quiet --locked --release -p mrtr
MRTR=$ROOT/target/release/mrtr
step cargo build --quiet --locked --release --manifest-path tests/probe/rmcp-server/Cargo.toml --target-dir "$ROOT/target/rmcp-server"
RMCP=$ROOT/target/rmcp-server/release/rmcp-probe-server
trap stop_servers EXIT

bench() {
  "$MRTR" bench --seconds "$EACH" "$@" | tee -a "$OUT/figures.txt"
}

bench --instant --label "ceiling (answers at once)"
start_server "$OUT/mrtr.log" "$MRTR" serve --http 127.0.0.1:0 --quiet
bench "$URL" --label "mrtr serve"
bench "$URL" --label "mrtr serve, 16 clients" --clients 16
start_server "$OUT/mrtr-logging.log" "$MRTR" serve --http 127.0.0.1:0
bench "$URL" --label "mrtr serve, log on"
start_server "$OUT/mrtr-1.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --threads 1
bench "$URL" --label "mrtr serve, 1 worker thread"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_server "$OUT/rmcp.log" "$RMCP" "$port" bench
bench "$URL" --label "rmcp 3.11" --token none
bench "$URL" --label "rmcp 3.11, 16 clients" --token none --clients 16
start_server "$OUT/sdk.log" node tests/interop/sdk-server.mjs 0
bench "$URL" --label "SDK v2 server" --token none
bench "$URL" --label "SDK v2 server, 16 clients" --token none --clients 16

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
def ratio(ours, theirs, rps_goal, p99_goal):
    a, b = rows.get(ours), rows.get(theirs)
    if a and b and b[0] > 0 and b[1] > 0:
        print(f"{ours} / {theirs}: {a[0] / b[0]:.1f}x the round trips per second (goal >= {rps_goal}), "
              f"p99 {a[1] / b[1]:.2f} of theirs (goal <= {p99_goal})")
ratio("mrtr serve", "rmcp 3.11", "1.5x", "1")
ratio("mrtr serve, 16 clients", "rmcp 3.11, 16 clients", "1.5x", "1")
ratio("mrtr serve", "SDK v2 server", "5x", "0.33")
quiet, logging = rows.get("mrtr serve"), rows.get("mrtr serve, log on")
if quiet and logging and quiet[0] > 0:
    print(f"the log costs {100 * (1 - logging[0] / quiet[0]):.0f}% of mrtr serve's round trips per second (goal <= 10%)")
PY
