#!/usr/bin/env bash
# Builds what the lab serves: the Yew app (dist/, by trunk, optimized with wasm-opt -Oz)
# and the codec's JS package (dist/pkg/, by wasm-pack, for lesson pages and the benchmark),
# plus the empty Yew page the budget compares against (target/budget-empty/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

step trunk build --release
# An empty Yew page beside it, the baseline scripts/budget.mjs measures the lab against.
step trunk build web/budget/empty.html --release --dist target/budget-empty
step wasm-pack build --mode no-install --profile speed --target web --out-dir "$ROOT/target/pkg-web" --no-pack crates/js
rm -rf dist/pkg && mkdir -p dist/pkg && cp target/pkg-web/mrtr_js.js target/pkg-web/mrtr_js_bg.wasm target/pkg-web/mrtr_js.d.ts dist/pkg/
ls -l dist/*.wasm dist/pkg/*.wasm >&2
