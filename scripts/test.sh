#!/usr/bin/env bash
# Runs every test: lit/FileCheck IR tests, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/lit -sv tests/ir
.venv/bin/python -m pytest -q tests/python "$@"
