#!/usr/bin/env bash
# The whole test suite: set-up, lint, format, types, layers, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh  # its EXTRAS default lists every group the tests need
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"; ruff check . && ruff format --check .
echo "== mypy --strict"; mypy
echo "== import-linter"; lint-imports
echo "== pytest"; pytest -n "${PYTEST_WORKERS:-2}" "$@"
