#!/usr/bin/env bash
# The whole test suite: set-up, lint, format, types, layers, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh  # installs the extras named in setup.sh (PITCH_EXTRAS overrides)
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"; ruff check . && ruff format --check .
echo "== mypy --strict"; mypy
echo "== import-linter"; lint-imports
echo "== pytest"; pytest -n "${PYTEST_WORKERS:-2}" "$@"
