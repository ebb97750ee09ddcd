#!/usr/bin/env bash
# The class server's figures under its own students, not a verdict, and a command of its own
# (not in the test command: it builds the class server for release and takes a few minutes):
#   - other students' claims, p50 and p99, while one seat opens 2,000 event streams and floods
#     statements (goal p99 <= 250 ms);
#   - 1,000 open pages on one class server hearing a settings change, and its memory;
#   - mrtr serve with twice its connection cap of clients at once: none unanswered.
#
#   bash scripts/bench-class.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
step cargo build --quiet --locked --release -p mrtr -p mrtr-class --bins --example bench_class
step "$ROOT/target/release/examples/bench_class" "$ROOT/target/release/mrtr-class" "$ROOT/target/release/mrtr"
