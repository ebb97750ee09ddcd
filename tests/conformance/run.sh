#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json) against the real server and client:
#
# 1. the 14 input-required-result-* server scenarios against
#    `mrtr serve --http … --tools conformance`: every check SUCCESS, no FAILURE, no WARNING;
# 2. a negative control, so the suite is shown able to fail: with `--signing off` the
#    tampered-state scenario must FAIL;
# 3. the client scenario sep-2322-client-request-state with `mrtr call --all` as the client.
#
#   bash tests/conformance/run.sh            (after `cargo build -p mrtr`; scripts/test.sh runs it)
#
# Prints one line per run and ends with "conformance: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
MRTR=${MRTR:-$ROOT/target/debug/mrtr}
SUITE=$ROOT/node_modules/.bin/conformance
OUT=$ROOT/target/conformance
# Node 20 lacks fs.globSync, which the suite's CLI imports (tests/conformance/node20/).
export NODE_OPTIONS="--import $ROOT/tests/conformance/node20/register.mjs"
[ -x "$MRTR" ] || { echo "conformance: $MRTR is not built (cargo build -p mrtr)" >&2; exit 1; }
[ -x "$SUITE" ] || { echo "conformance: the suite is not installed (npm ci)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"

passed=0
failed=0

trap stop_servers EXIT

# Runs one scenario; `want` is "pass" (no FAILURE, no WARNING) or "fail" (a FAILURE).
scenario() {
  local want=$1 kind=$2 name=$3
  shift 3
  local log=$OUT/$name-$want.log
  timeout 120 "$SUITE" "$kind" --scenario "$name" "$@" >"$log" 2>&1
  local summary
  summary=$(grep -E '^Passed: ' "$log" | tail -n1)
  local failures warnings
  failures=$(sed -n 's/.*, \([0-9]*\) failed.*/\1/p' <<<"$summary")
  warnings=$(sed -n 's/.*, \([0-9]*\) warnings.*/\1/p' <<<"$summary")
  local label=$name
  [ "$want" = fail ] && label="$name (must fail)"
  local ok=no
  if [ "$want" = pass ] && [ "$failures" = 0 ] && [ "$warnings" = 0 ]; then ok=yes; fi
  if [ "$want" = fail ] && [ -n "$failures" ] && [ "$failures" != 0 ]; then ok=yes; fi
  if [ $ok = yes ]; then
    passed=$((passed + 1))
    printf 'ok   %-62s %s\n' "$label" "${summary:-no summary}"
  else
    failed=$((failed + 1))
    printf 'FAIL %-62s %s (log %s)\n' "$label" "${summary:-no summary}" "$log"
    grep -E 'FAILURE|WARNING' "$log" | head -n 5
  fi
}

start_server "$OUT/server-safe.log" "$MRTR" serve --http 127.0.0.1:0 --tools conformance --allow-anonymous --quiet || exit 1
for s in basic-elicitation basic-sampling basic-list-roots request-state multiple-input-requests multi-round \
  missing-input-response non-tool-request result-type unsupported-methods tampered-state \
  capability-check ignore-extra-params validate-input; do
  scenario pass server "input-required-result-$s" --url "$URL"
done
stop_servers

# The negative control: a server that signs nothing lets the tampered state through.
start_server "$OUT/server-careless.log" "$MRTR" serve --http 127.0.0.1:0 --tools conformance --allow-anonymous --quiet --signing off ||
  exit 1
scenario fail server input-required-result-tampered-state --url "$URL"
stop_servers

# The client scenario: the suite's mock server, mrtr call as the client (the suite appends
# the mock's URL to the command).
scenario pass client sep-2322-client-request-state --command "$MRTR call --all"

echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
