#!/usr/bin/env bash
# The main job: set up, then run `pitch` (default: simulate 100 games and verify them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
if [ $# -gt 0 ]; then exec .venv/bin/pitch "$@"; fi
.venv/bin/pitch simulate --games 100 --seed 1 --out games.jsonl
exec .venv/bin/pitch verify games.jsonl
