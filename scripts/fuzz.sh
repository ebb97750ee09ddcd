#!/usr/bin/env bash
# The fuzz targets (fuzz/, their own workspace) in a short run that gives the same inputs
# every time: each target replays its committed seeds (fuzz/seeds/<target>/, when there are
# any), then tries a fixed number of new inputs drawn from a fixed seed, with debug
# assertions and overflow checks on. A crash fails the run and leaves its input in
# fuzz/artifacts/<target>/. Longer runs, by hand: README, "Fuzzing".
#
#   scripts/fuzz.sh          (FUZZ_RUNS=N tries N new inputs on each target instead)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
cd "$ROOT/fuzz"

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
for target in open attempt; do
  case $target in open) runs=60000 ;; *) runs=12000 ;; esac
  rm -rf "${SCRATCH:?}/$target"
  mkdir -p "$SCRATCH/$target"
  seeds=()
  if [ -d "seeds/$target" ]; then seeds=("seeds/$target"); fi
  step cargo fuzz run --debug-assertions --target-dir "$BUILD_DIR" "$target" "$SCRATCH/$target" "${seeds[@]}" \
    -- -runs="${FUZZ_RUNS:-$runs}" -seed=1 -max_len=4096 -print_final_stats=1
done
