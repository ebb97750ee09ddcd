#!/usr/bin/env bash
# Interop with the official TypeScript SDK v2 (pinned in package.json), both ways:
# 1. its client (tests/interop/sdk-client.mjs) completes every lab tool against
#    `mrtr serve --http`;
# 2. `mrtr call` completes a round trip against its server with its own requestState codec
#    (tests/interop/sdk-server.mjs);
# 3. `mrtr probe` reports what that codec binds and what it does not: it refuses every edit
#    of its state, and (as its documentation says: no principal, request or single-use
#    binding of its own) lets through another principal, another request, a replay and
#    answers that come without state. Findings about the SDK, not failures of ours.
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

"$MRTR" probe "$URL" --call 'tools/call deploy {"env":"prod"}' --token bob-token --second-token alice-token --json \
  >"$OUT/probe.json" 2>"$OUT/probe.log"
check "mrtr probe reads the SDK v2 codec's bindings" "$OUT/probe-check.log" python3 - "$OUT/probe.json" <<'PY'
import json, sys
results = {r["attack"]: r["result"] for r in json.load(open(sys.argv[1]))["results"]}
through = sorted(a for a, r in results.items() if r["verdict"] == "finding")
want = sorted(["other-principal", "other-arguments", "send-twice", "prefill-answer", "drop-ticket"])
assert results["honest"]["verdict"] == "completed", results["honest"]
assert through == want, through
assert all(results[a]["verdict"] == "passed" for a in ["tamper-byte", "tamper-tag", "edit-payload", "drop-tag", "resign", "hello", "not-a-string", "huge", "empty", "re-encode"])
# Two flows of one call in the same second get the same state: no other tag to splice.
assert results["splice-tag"]["verdict"] in ("passed", "not-tested"), results["splice-tag"]
print("the SDK codec refuses every edit; it binds no principal, request or single use")
PY

echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
