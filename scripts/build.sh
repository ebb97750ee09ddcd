#!/usr/bin/env bash
# Builds what the lab serves: the Yew app (dist/, by trunk, optimized with wasm-opt -Oz) and,
# through trunk's post-build hook (scripts/trunk-post-build.sh), the embed kit beside it:
# embed.html, the <mrtr-lab> and <mrtr-ticket> elements, the codec's JS package (dist/pkg/),
# the service worker. Plus the empty Yew page the budget compares against (target/budget-empty/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

# What building needs, installed when it is missing (as the serve and test commands do).
step bash scripts/setup.sh serve
step trunk build --release
# An empty Yew page beside it, the baseline scripts/budget.mjs measures the lab against.
step trunk build web/budget/empty.html --release --dist target/budget-empty
ls -l dist/*.wasm dist/pkg/*.wasm >&2
