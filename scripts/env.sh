# Sourced by the other scripts: the PATH and environment every step runs with,
# and `step`, which runs a command and prints how long it took.
export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export PATH="$CARGO_HOME/bin:$ROOT/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

# scripts/test.sh sets MRTR_DEADLINE (epoch seconds): a step still running then is stopped
# and fails, naming itself, before CI's own limit cuts the run off without saying where its
# time went. MRTR_STEP_LOG, when set, collects each step's time for the run's summary.
step() {
  local start=$SECONDS rc=0
  echo "[step] $*" >&2
  if [ -n "${MRTR_DEADLINE:-}" ]; then
    # Stopped with everything it started, except at a terminal, where Ctrl-C must still reach it.
    local left=$((MRTR_DEADLINE - $(date +%s))) how=()
    [ ! -t 0 ] || how=(--foreground)
    timeout "${how[@]}" -k 15 "$((left > 1 ? left : 1))" "$@" || rc=$?
    [ "$rc" -ne 124 ] || echo "[step] stopped: the run's time limit was reached" >&2
  else
    "$@" || rc=$?
  fi
  echo "[time] $((SECONDS - start))s rc=$rc: $*" >&2
  [ -z "${MRTR_STEP_LOG:-}" ] || printf '%6ss  rc=%-3s %s\n' "$((SECONDS - start))" "$rc" "$*" >>"$MRTR_STEP_LOG"
  return $rc
}

# The servers start_server started, and how to stop them: a script that starts any says
# `trap stop_servers EXIT` once, and may call stop_servers between its parts.
pids=()
# A stopped server's status (143) is not the script's: under `set -e` it would end the
# script with it, so each stop ends in `|| true`.
stop_servers() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  pids=()
}

# Starts a server in the background that prints its address (`… http://127.0.0.1:PORT/mcp`),
# its output in LOG, and waits for that address: sets URL and adds the process to `pids`
# (stop_servers stops them). Fails, showing the log, when none comes within 10 s.
#   start_server LOG COMMAND [ARGS…]
start_server() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 &
  pids+=($!)
  URL=
  for _ in $(seq 1 100); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -n1 || true)
    [ -n "$URL" ] && return 0
    sleep 0.1
  done
  echo "$* did not start:" >&2
  cat "$log" >&2
  return 1
}
