#!/usr/bin/env bash
# The whole test suite: set-up, lint, format, types, layers, tests.
# --stress [RUNS]: the same on a fresh clone beside two CPU hogs, RUNS times, then with
# 4 workers (scripts/stress.sh); PITCH_TEST_SLOW=N stretches every wait N times.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --stress ]; then shift; exec bash scripts/stress.sh "$@"; fi
bash scripts/setup.sh  # installs the extras named in setup.sh (PITCH_EXTRAS overrides)
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"; ruff check . && ruff format --check .
echo "== mypy --strict"; mypy
echo "== import-linter"; lint-imports
# --durations: every run names its slowest tests (the suite's time is a budget too).
pytest_cmd=(pytest -n "${PYTEST_WORKERS:-2}" --durations=25 "$@")
# The server suite also runs against a real PostgreSQL when the Debian package is there:
# scripts/with-postgres.sh starts a throwaway cluster and sets PITCH_TEST_PG_URL.
if [ -z "${PITCH_TEST_PG_URL:-}" ] && [ "${PITCH_NO_PG:-0}" != 1 ] \
  && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "== pytest (with PostgreSQL)"; scripts/with-postgres.sh "${pytest_cmd[@]}"
else
  echo "== pytest"; "${pytest_cmd[@]}"
fi
