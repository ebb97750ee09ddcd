#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): minifies the page's module in release builds, and
# completes the build of index.html with what the embed kit serves beside it, in the staging
# directory, on every build and every rebuild.
#
#   embed.html               the iframe page (the same app: it notices its name)
#   mrtr-lab-element.css     the lab's style partials in one sheet, for <mrtr-lab>'s shadow root
#   probe/parts.css          the styles of the parts that load when near, for the lab's page
#   mrtr-lab-build.js        the hashed names of the lab's module, for mrtr-lab-element.js
#   pkg/                     the codec's JavaScript package (mrtr-js, by wasm-pack), for <mrtr-ticket> and authors
#   sw.js                    the service worker, with the list of every file to keep offline
set -euo pipefail
stage=${TRUNK_STAGING_DIR:?run by trunk}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# The page's wasm-bindgen module (the script beside its wasm), the names its wasm imports
# from it and the names it calls the wasm's exports by, minified in release builds as Trunk
# minifies the page (scripts/minify-module.mjs), before anything lists the files: the service
# worker's version is a hash of them. The budget's empty Yew page gets the same, and nothing else.
glue=$(cd "$stage" && for wasm in *_bg.wasm; do echo "${wasm%_bg.wasm}.js"; done | head -n1)
[ -f "$stage/$glue" ] || { echo "post-build: no wasm-bindgen module in $stage" >&2; exit 1; }
if [ "${TRUNK_PROFILE:-}" = release ]; then
  node scripts/minify-module.mjs "$stage" "$glue"
fi
case "${TRUNK_HTML_FILE:-}" in
  */index.html | index.html) ;;
  *) exit 0 ;;
esac

# The iframe's page: this page without its skip links, whose panels the compact lab does not have.
perl -0pe 's{<nav[^>]*skip-links.*?</nav>\s*<script>.*?</script>}{}s' "$stage/index.html" >"$stage/embed.html"
grep -q skip-links "$stage/embed.html" && { echo "post-build: embed.html kept the skip links" >&2; exit 1; }

# The styles of the area below the lab (web/probe/elements.js adds them to the page with the
# parts that load when near: the area is out of the first window), then the partials in the order index.html inlines them, and those parts'
# styles again for <mrtr-lab>'s shadow roots, where a page's stylesheet does not reach.
# The two sheets without their comments and runs of white space (1.4 KB gzip less on a lesson
# page): the page's own styles are minified by Trunk, these are put together here. No rule in
# web/styles/ has "/*" or a run of spaces inside a string.
without_comments() { perl -0pe 's{/\*.*?\*/}{}gs; s{\s+}{ }g'; }
parts_css="web/styles/campaign.css web/styles/challenges.css web/styles/probe.css web/styles/quiz.css"
mkdir -p "$stage/probe"
# On a lesson page the parts stand outside the lab, where its colours (base.css's variables on
# :root and :host) are not defined: the same declarations, from base.css, on the parts' own
# elements, so that refused and got-through read in colour there too.
{
  echo "mrtr-probe, mrtr-fixit, mrtr-quiz, mrtr-transcript, mrtr-progress {"
  sed -n '/^:root, :host {/,/^}/p' web/styles/base.css | grep '^  --'
  echo "}"
  cat $parts_css
} | without_comments >"$stage/probe/parts.css"
grep -q -- '--bad:' "$stage/probe/parts.css" || { echo "post-build: parts.css has no colours" >&2; exit 1; }
{ grep -o 'data-trunk rel="inline" type="css" href="[^"]*"' index.html | sed 's/.*href="//; s/"$//' | xargs cat; cat $parts_css; } |
  without_comments >"$stage/mrtr-lab-element.css"

cat >"$stage/mrtr-lab-build.js" <<JS
// Written by scripts/trunk-post-build.sh: the names this build gave the lab's files.
export const glue = "./$glue";
export const wasm = "./${glue%.js}_bg.wasm";
export const styles = "./mrtr-lab-element.css";
JS

# The codec package (an npm package directory: ES module, wasm, TypeScript types,
# package.json), built for speed as the benchmark measures it. wasm-pack (its wasm-opt -O3
# above all) runs only when the crate's wasm changed, not on every rebuild of the lab.
target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
pkg=$target_dir/pkg-web
cargo build --quiet -p mrtr-js --lib --target wasm32-unknown-unknown --profile speed
if [ ! -f "$pkg/mrtr_js_bg.wasm" ] || [ "$target_dir/wasm32-unknown-unknown/speed/mrtr_js.wasm" -nt "$pkg/mrtr_js_bg.wasm" ]; then
  wasm-pack build --mode no-install --target web --profile speed --out-dir "$pkg" crates/js >&2
fi
mkdir -p "$stage/pkg" && cp -r "$pkg/." "$stage/pkg/"

# The service worker, told the files to keep at once and a version that changes with every
# file of the build. The JS package (pkg/) is not kept at once: a page loads it on a probe
# panel's first run, and the worker keeps it then (sw.js), so a first visit does not fetch it.
files=$(cd "$stage" && find . -type f ! -name sw.js ! -name '.*' | sed 's|^\./||' | LC_ALL=C sort)
version=$(cd "$stage" && echo "$files" | xargs sha256sum | sha256sum | cut -c1-16)
list=$(echo "$files" | grep -v '^pkg/' | sed 's/.*/  "&",/')
awk -v version="$version" -v list="$list" '
  /__PRECACHE__/ { print list; next }
  { gsub(/__VERSION__/, version); print }
' web/sw.js >"$stage/sw.js"
