#!/usr/bin/env bash
# Installs everything mrtr-lab needs to build, serve and test, from the package
# registries only (Debian's, Rust's and npm's). Nothing is downloaded from anywhere else.
# Safe to re-run: whatever is already present at the right version is skipped.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock")
WASM_PACK_VERSION=0.15.1
TRUNK_VERSION=0.21.14 # trunk 0.22.x needs rustc >= 1.96.1
CARGO_FUZZ_VERSION=0.13.2
CARGO_MACHETE_VERSION=0.9.2

# `setup.sh serve` installs only what serving the lab needs; plain `setup.sh` everything.
PURPOSE=${1:-all}

has_version() { command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qwF "$2"; }

# 1. Debian: headless Chromium and the matching ChromeDriver, Redis for the replicas' shared
#    record of used tickets and redis-sentinel for its Sentinel tests, openssl for the test
#    certificates of the probe's https and the record's TLS, and PostgreSQL for the class
#    server's tests on it (tests only).
if [ "$PURPOSE" = all ] && { ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1 ||
  ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-sentinel >/dev/null 2>&1 ||
  ! command -v openssl >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }; then
  step apt-get update -qq
  step env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver \
    redis-server redis-sentinel openssl postgresql
fi

# 2. The wasm target.
rustup target list --installed | grep -qx wasm32-unknown-unknown || step rustup target add wasm32-unknown-unknown

# 3. wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen.
if ! has_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
  if ! step cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked; then
    # Its published Cargo.lock pins a webpki-roots this registry may not serve yet. The
    # failed attempt left the checksum-verified source in the registry cache: build a copy
    # of it with only that one pin lowered.
    src=$(mktemp -d)
    cp -r "$(ls -d "$CARGO_HOME"/registry/src/*/wasm-bindgen-cli-"$WASM_BINDGEN_VERSION" | head -n1)" "$src/cli"
    (cd "$src/cli" && cargo update -p webpki-roots --precise 1.0.10)
    step cargo install --path "$src/cli" --locked
    rm -rf "$src"
  fi
fi

# 4. wasm-pack, which builds the codec's JS package beside the lab (the npm package of that
#    name downloads a binary from outside the registries).
has_version wasm-pack "$WASM_PACK_VERSION" ||
  step cargo install wasm-pack --version "=$WASM_PACK_VERSION" --locked

# 5. trunk; its own speed hardly matters, so skip LTO to shorten the build.
has_version trunk "$TRUNK_VERSION" ||
  step env CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "=$TRUNK_VERSION" --locked

# 6. npm dev-dependencies from the committed lock file: wasm-opt (binaryen, run by node),
#    terser (minifies the lab's module), playwright-core (drives Debian's Chromium), axe-core,
#    typescript, and the official MCP conformance suite with the TypeScript SDK v2.
if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || ! cmp -s "$ROOT/package-lock.json" "$ROOT/node_modules/.lock-copy"; then
  (cd "$ROOT" && step npm ci --no-audit --no-fund && cp package-lock.json node_modules/.lock-copy)
fi

# 7. cargo-fuzz, for the fuzz targets' short run in the tests (scripts/fuzz.sh; tests only).
if [ "$PURPOSE" = all ]; then
  has_version cargo-fuzz "$CARGO_FUZZ_VERSION" ||
    step cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked
fi

# 8. cargo-machete, which finds dependencies a crate declares and does not use (tests only).
if [ "$PURPOSE" = all ]; then
  has_version cargo-machete "$CARGO_MACHETE_VERSION" ||
    step cargo install cargo-machete --version "=$CARGO_MACHETE_VERSION" --locked
fi

echo "[setup] toolchain ready" >&2
