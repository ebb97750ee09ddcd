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
#   - two replicas on a three-shard Redis Cluster, beside the two on one Redis,
#   - mrtr serve and rmcp interleaved (three turns each), with each server's CPU time (its
#     process's user + system time over the run, from /proc) per round trip: a figure the
#     load generator's pace on 2 shared cores does not move.
# Then the ratios the goals are stated in: mrtr serve over rmcp (goal ≥ 1.5× the round trips,
# a p99 no higher; CPU per round trip ≤ 2/3 of rmcp's) and over the SDK, and the log's cost
# (goal ≤ 10%).
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

# A free loopback port; `free_port cluster`: one at most 55535 whose port 10000 above is free
# too (a Redis Cluster node's bus).
free_port() {
  python3 - "${1:-any}" <<'PY'
import random, socket, sys
def free(p):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
        return s.getsockname()[1]
    except OSError:
        return 0
    finally:
        s.close()
if sys.argv[1] == "cluster":
    print(next(p for p in iter(lambda: random.randrange(20000, 50000), 0) if free(p) and free(p + 10000)))
else:
    print(free(0))
PY
}

# The CPU time (user + system, clock ticks) process $1 has used so far.
cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# bench with the server process's CPU time per round trip: cpu_bench PID LABEL ARGS…
cpu_bench() {
  local pid=$1 label=$2 before after line trips
  shift 2
  before=$(cpu_ticks "$pid")
  line=$("$MRTR" bench --seconds "$EACH" "$@" --label "$label")
  after=$(cpu_ticks "$pid")
  trips=$(sed -n 's/.*(\([0-9]*\) round trips.*/\1/p' <<<"$line")
  echo "$line" | tee -a "$OUT/figures.txt"
  python3 -c "import os,sys; t=int(sys.argv[3]); print(f'{sys.argv[1]:<28} cpu {1e6*(int(sys.argv[2]))/os.sysconf(\"SC_CLK_TCK\")/max(t,1):.1f} us per round trip')" \
    "$label" "$((after - before))" "${trips:-0}" | tee -a "$OUT/figures.txt"
}

bench --instant --label "ceiling (answers at once)"
start_server "$OUT/mrtr.log" "$MRTR" serve --http 127.0.0.1:0 --quiet
MRTR_URL=$URL MRTR_PID=${pids[-1]}
bench "$URL" --label "mrtr serve"
bench "$URL" --label "mrtr serve, 16 clients" --clients 16
start_server "$OUT/mrtr-logging.log" "$MRTR" serve --http 127.0.0.1:0
bench "$URL" --label "mrtr serve, log on"
start_server "$OUT/mrtr-1.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --threads 1
bench "$URL" --label "mrtr serve, 1 worker thread"
port=$(free_port)
start_server "$OUT/rmcp.log" "$RMCP" "$port" bench
RMCP_URL=$URL RMCP_PID=${pids[-1]}
bench "$URL" --label "rmcp 3.11" --token none
# Interleaved, so that the machine's moods fall on both alike.
for turn in 1 2 3; do
  cpu_bench "$MRTR_PID" "cpu: mrtr serve $turn" "$MRTR_URL"
  cpu_bench "$RMCP_PID" "cpu: rmcp 3.11 $turn" "$RMCP_URL" --token none
done
bench "$URL" --label "rmcp 3.11, 16 clients" --token none --clients 16
start_server "$OUT/sdk.log" node tests/interop/sdk-server.mjs 0
bench "$URL" --label "SDK v2 server" --token none
bench "$URL" --label "SDK v2 server, 16 clients" --token none --clients 16

if command -v redis-server >/dev/null; then
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no >"$OUT/redis.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  head -c 32 /dev/urandom >"$OUT/key"
  start_server "$OUT/a.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica A --key-file "$OUT/key" --record "redis://127.0.0.1:$port"
  a=$URL
  start_server "$OUT/b.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica B --key-file "$OUT/key" --record "redis://127.0.0.1:$port"
  bench --url "$a" --url "$URL" --label "2 replicas + Redis"
  # A three-shard Redis Cluster (primaries only), and two replicas on it.
  nodes=()
  for n in 1 2 3; do
    # A cluster node's bus listens 10000 above its port, which must be 55535 at most.
    port=$(free_port cluster)
    mkdir -p "$OUT/cluster-$n"
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --cluster-enabled yes \
      --dir "$OUT/cluster-$n" >"$OUT/cluster-$n.log" 2>&1 &
    pids+=($!)
    nodes+=("127.0.0.1:$port")
    for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  done
  if ! redis-cli --cluster create "${nodes[@]}" --cluster-yes >"$OUT/cluster-create.log" 2>&1; then
    echo "the cluster could not be created:" >&2
    cat "$OUT/cluster-create.log" >&2
    exit 1
  fi
  # Every node must see the cluster up (gossip reaches them one by one), as the tests wait:
  # a replica that starts while one node still says "down" refuses to start.
  formed=""
  for _ in $(seq 1 300); do
    formed=yes
    for node in "${nodes[@]}"; do
      redis-cli -p "${node#*:}" cluster info 2>/dev/null | grep -q cluster_state:ok || formed=""
    done
    [ -n "$formed" ] && break
    sleep 0.1
  done
  if [ -z "$formed" ]; then
    echo "the cluster did not form in 30 s:" >&2
    for node in "${nodes[@]}"; do redis-cli -p "${node#*:}" cluster info | grep cluster_state >&2; done
    exit 1
  fi
  cluster=$(IFS=,; echo "redis+cluster://${nodes[*]}")
  start_server "$OUT/ca.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica A --key-file "$OUT/key" --record "$cluster"
  a=$URL
  start_server "$OUT/cb.log" "$MRTR" serve --http 127.0.0.1:0 --quiet --replica B --key-file "$OUT/key" --record "$cluster"
  bench --url "$a" --url "$URL" --label "2 replicas + Redis Cluster"
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
cpu = {}
for line in open(sys.argv[1]):
    m = re.match(r"cpu: (.+?) \d\s+cpu ([\d.]+) us per round trip", line)
    if m:
        cpu.setdefault(m.group(1), []).append(float(m.group(2)))
ours, theirs = cpu.get("mrtr serve"), cpu.get("rmcp 3.11")
if ours and theirs:
    print(f"CPU per round trip, interleaved: mrtr serve {', '.join(f'{x:.1f}' for x in ours)} us; "
          f"rmcp 3.11 {', '.join(f'{x:.1f}' for x in theirs)} us; "
          f"median ratio {sorted(ours)[len(ours) // 2] / sorted(theirs)[len(theirs) // 2]:.2f} (goal <= 0.67)")
quiet, logging = rows.get("mrtr serve"), rows.get("mrtr serve, log on")
if quiet and logging and quiet[0] > 0:
    print(f"the log costs {100 * (1 - logging[0] / quiet[0]):.0f}% of mrtr serve's round trips per second (goal <= 10%)")
PY
