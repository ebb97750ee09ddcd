#!/usr/bin/env bash
# Runs every test of mrtr-lab, installing whatever is missing first (scripts/setup.sh).
# Each step prints its time. Exits non-zero on the first failure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
START=$SECONDS

# The whole run must end within CI's 90 minutes: every step is stopped at 80 (scripts/env.sh),
# and the run ends, passed or not, with each step's time, the slow ones easy to find in a log's tail.
export MRTR_DEADLINE=$(($(date +%s) + ${MRTR_TIME_LIMIT:-4800}))
MRTR_STEP_LOG=$(mktemp)
export MRTR_STEP_LOG
summary() {
  echo "[test] each step's time, setup's own steps first:" >&2
  cat "$MRTR_STEP_LOG" >&2
  rm -f "$MRTR_STEP_LOG"
}
trap summary EXIT

step bash scripts/setup.sh

# Style and lints: the same gate for every crate.
step cargo fmt --all --check
step cargo fmt --manifest-path fuzz/Cargo.toml --check
# The `careless` feature builds the test-only servers the probe's tests need (never in a
# release build): the lints and the tests see that code too.
step cargo clippy --workspace --all-targets --locked --features mrtr/careless -- -D warnings
# The docs stay true: the crate docs build without a warning (no link to what does not exist),
# and every file docs/ARCHITECTURE.md names is in the tree.
step env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --locked
step python3 scripts/check-docs.py
# What can drift, held: no module cycles in any crate, and each JS copy of a Rust key equal to it.
step python3 scripts/tidy.py
# No dependency declared and not used (every Cargo.toml: the workspace, fuzz/, the fixtures).
step cargo machete

# Native tests (the replicas' test needs Redis here, not skipped), then the known-answer
# vectors through the independent Python implementation.
export MRTR_REQUIRE_REDIS=1
# A throwaway PostgreSQL for the class server's tests on it (crates/class/tests/class.rs, and
# the browser's class test, tests/e2e/class-server.test.mjs), up until the browser tests end.
PG_DIR=$ROOT/target/postgres
MRTR_TEST_POSTGRES=$(bash scripts/postgres.sh start "$PG_DIR")
export MRTR_TEST_POSTGRES
trap 'bash scripts/postgres.sh stop "$PG_DIR"; summary' EXIT
step cargo test --workspace --locked --features mrtr/careless
step python3 tests/test_vectors.py
# 100,000 doubles of every exponent: the codec's canonical numbers and digests, as Python's.
step bash -c 'cargo run -q --locked -p mrtr-ticket --example doubles -- 100000 | python3 tests/test_doubles.py'
# The official MCP conformance suite against mrtr serve and mrtr call (built by the tests).
step bash tests/conformance/run.sh
# The official TypeScript SDK v2's client against mrtr serve, and mrtr call against its server.
step bash tests/interop/run.sh
# mrtr probe against the official SDKs' servers (TypeScript, Python, rmcp) and fixtures that
# each break one rule: every verdict as established by hand; SARIF and JUnit; SDK-FINDINGS.md.
step bash tests/probe/run.sh
# mrtr probe against a zoo of generated servers whose truth is known by construction: every
# pair of dimension values covered, and a seeded sample of 300 (tests/zoo/run.py; ZOO_SEED=N
# reruns a seed).
step python3 tests/zoo/run.py "$ROOT/target/debug/mrtr"
# mrtr lint on transcripts generated with planted mistakes, in every capture form it reads.
step python3 tests/zoo/transcripts.py "$ROOT/target/debug/mrtr"
# The fuzz targets on their committed seeds and a fixed set of new inputs (scripts/fuzz.sh).
step bash scripts/fuzz.sh

# The same library tests compiled to wasm, in Node.
step wasm-pack test --node --mode no-install crates/ticket
step wasm-pack test --node --mode no-install crates/sim

# Component tests in headless Chromium.
step wasm-pack test --headless --chrome --chromedriver "$(command -v chromedriver)" --mode no-install crates/lab

# The built lab and the JS package, what each page fetches on a first visit (a size does
# not depend on the machine's noise: over its limit fails), then the browser end-to-end tests.
step bash scripts/build.sh
step node scripts/weight.mjs
step node tests/e2e/run.mjs
bash scripts/postgres.sh stop "$PG_DIR"
trap summary EXIT

# Figures, not verdicts: the codec benchmark and the lab's budget print what they measure.
step node scripts/bench.mjs
step node scripts/budget.mjs
step bash scripts/bench-server.sh
# mrtr lint (release) on a 50 MB capture and a round of 200,000 keys: figures, not asserts.
step python3 scripts/bench-lint.py "$ROOT/target/release/mrtr"

echo "[test] all steps passed in $((SECONDS - START))s" >&2
