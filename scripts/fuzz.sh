#!/usr/bin/env bash
# The fuzz targets (fuzz/, their own workspace) in a short run that gives the same inputs
# every time: each target replays its committed seeds (fuzz/seeds/<target>/, when there are
# any), then tries a fixed number of new inputs drawn from a fixed seed, with debug
# assertions and overflow checks on. A crash fails the run and leaves its input in
# fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh               (FUZZ_RUNS=N tries N new inputs on each target instead;
#                                 FUZZ_TARGETS="open" runs only that one)
#   scripts/fuzz.sh --long MINUTES
#       runs each target for MINUTES minutes instead, from a random seed, keeping what it
#       finds in fuzz/corpus/<target>/ for the next long run (docs/DEVELOPING.md, "Fuzzing")
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
cd "$ROOT/fuzz"

LONG_MINUTES=
if [ "${1:-}" = --long ]; then
  LONG_MINUTES=${2:?"--long takes a number of minutes"}
  [[ $LONG_MINUTES =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --long takes a whole number of minutes, not '$LONG_MINUTES'" >&2; exit 2; }
elif [ $# -gt 0 ]; then
  echo "fuzz.sh: unknown argument '$1' (scripts/fuzz.sh [--long MINUTES])" >&2
  exit 2
fi

# cargo-fuzz passes the sanitizer's flags, which are unstable: the stable toolchain takes
# them with this.
export RUSTC_BOOTSTRAP=1
# Its Cargo.lock is committed and must be current (cargo-fuzz has no --locked of its own).
step cargo metadata --locked --format-version 1 >/dev/null
# Built under the main target directory, so a kept target/ keeps this build too.
BUILD_DIR="$ROOT/target/fuzz"
# New inputs go to a corpus started afresh each time (the run stays the same run), never to
# the committed seeds.
SCRATCH="$ROOT/target/fuzz-corpus"

# New inputs per target: 10–20 s of each on 2 cores (a codec open is far cheaper than
# a cluster's round).
for target in ${FUZZ_TARGETS:-open attempt probe http lint}; do
  seeds=()
  if [ -d "seeds/$target" ]; then seeds=("seeds/$target"); fi
  if [ -n "$LONG_MINUTES" ]; then
    mkdir -p "corpus/$target"
    step cargo fuzz run --debug-assertions --target-dir "$BUILD_DIR" "$target" "corpus/$target" "${seeds[@]}" \
      -- -max_total_time=$((LONG_MINUTES * 60)) -max_len=4096 -print_final_stats=1
    continue
  fi
  case $target in open) runs=60000 ;; probe) runs=3000 ;; http) runs=20000 ;; *) runs=12000 ;; esac
  rm -rf "${SCRATCH:?}/$target"
  mkdir -p "$SCRATCH/$target"
  step cargo fuzz run --debug-assertions --target-dir "$BUILD_DIR" "$target" "$SCRATCH/$target" "${seeds[@]}" \
    -- -runs="${FUZZ_RUNS:-$runs}" -seed=1 -max_len=4096 -print_final_stats=1
done
