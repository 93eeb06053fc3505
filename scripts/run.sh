#!/usr/bin/env bash
# The main job: set up, then start the browser game (`pitch serve`, SQLite in the user's
# data directory) on http://127.0.0.1:8000. `scripts/run.sh ARGS...` runs `pitch ARGS...`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
if [ $# -gt 0 ]; then exec .venv/bin/pitch "$@"; fi
exec .venv/bin/pitch serve --host "${PITCH_HOST:-127.0.0.1}" --port "${PITCH_PORT:-8000}"
