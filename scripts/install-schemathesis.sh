#!/usr/bin/env bash
# Installs the pinned Schemathesis (PyPI) into .tools/schemathesis, a git-ignored venv, for the
# API fuzzer (scripts/fuzz.ts). Idempotent: an existing venv with the pinned version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.32.5
VENV=.tools/schemathesis
if [ -x "$VENV/bin/st" ] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('schemathesis') != '$VERSION')" 2>/dev/null; then
  exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
"$VENV/bin/st" --version
