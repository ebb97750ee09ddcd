"""Keeps docs/ARCHITECTURE.md true about files: every file it names in backticks (a path, or a
bare file name such as `battery.rs`) exists in the tree, or is built: under dist/ or target/,
or written by the build (named in scripts/, Trunk.toml or index.html). Prints what is missing
and exits 1.

    python3 scripts/check-docs.py
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
EXTENSIONS = (".rs", ".md", ".sh", ".mjs", ".js", ".py", ".toml", ".html", ".css", ".json", ".ts")

tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
names = {os.path.basename(path) for path in tracked}
paths = set(tracked)
dirs = {os.path.dirname(path) for path in tracked}
while True:
    more = {os.path.dirname(d) for d in dirs if d} - dirs
    if not more:
        break
    dirs |= more

build_text = ""
for path in tracked:
    if path.startswith("scripts/") or path in ("Trunk.toml", "index.html"):
        build_text += open(os.path.join(ROOT, path), encoding="utf-8", errors="replace").read()


def built(token):
    return token.startswith(("dist", "target")) or os.path.basename(token.rstrip("/")) in build_text


missing = []
for token in re.findall(r"`([^`\s]+)`", open(DOC, encoding="utf-8").read()):
    token = token.rstrip(",.;:")
    if built(token):
        continue
    if token.endswith("/"):
        if token.rstrip("/") not in dirs and not any(d.endswith("/" + token.rstrip("/")) for d in dirs):
            missing.append(token)
    elif token.endswith(EXTENSIONS) and "*" not in token and "<" not in token:
        found = token in paths or any(p.endswith("/" + token) for p in paths) if "/" in token else token in names
        if not found:
            missing.append(token)

for token in missing:
    print(f"docs/ARCHITECTURE.md names {token}, which is not in the tree")
print(f"architecture files: {len(missing)} missing")
sys.exit(1 if missing else 0)
