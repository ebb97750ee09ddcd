# Sourced by the other scripts: the PATH and environment every step runs with,
# and `step`, which runs a command and prints how long it took.
export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export PATH="$CARGO_HOME/bin:$ROOT/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

step() {
  local start=$SECONDS rc=0
  echo "[step] $*" >&2
  "$@" || rc=$?
  echo "[time] $((SECONDS - start))s rc=$rc: $*" >&2
  return $rc
}
