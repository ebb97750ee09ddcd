#!/usr/bin/env bash
# Interop with the official TypeScript SDK v2 (pinned in package.json), both ways:
# 1. its client (tests/interop/sdk-client.mjs) completes every lab tool against
#    `mrtr serve --http`;
# 2. `mrtr call` completes a round trip against its server with its own requestState codec
#    (tests/interop/sdk-server.mjs);
# (`mrtr probe` against the SDK's servers is tests/probe/run.sh.)
#
#   bash tests/interop/run.sh            (after `cargo build -p mrtr`; scripts/test.sh runs it)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
MRTR=${MRTR:-$ROOT/target/debug/mrtr}
OUT=$ROOT/target/interop
rm -rf "$OUT" && mkdir -p "$OUT"
passed=0
failed=0
trap stop_servers EXIT

check() {
  local name=$1 log=$2
  shift 2
  if timeout 120 "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (log $log)"
    tail -n 15 "$log"
  fi
}

start_server "$OUT/mrtr-serve.log" "$MRTR" serve --http 127.0.0.1:0 --quiet || exit 1
check "the SDK v2 client completes every lab tool against mrtr serve" "$OUT/sdk-client.log" \
  node tests/interop/sdk-client.mjs "$URL"

start_server "$OUT/sdk-server.log" node tests/interop/sdk-server.mjs 0 || exit 1
check "mrtr call completes a round trip against an SDK v2 server" "$OUT/mrtr-call.log" \
  "$MRTR" call "$URL" deploy '{"env":"prod"}'
grep -q '^# deploy: complete' "$OUT/mrtr-call.log" || { failed=$((failed + 1)); echo "FAIL the call did not complete"; }

echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
