#!/usr/bin/env bash
# Step 6 of PLAN.md: the other tables' data, master in every seat.
set -euo pipefail
out=docs/results/play-model
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
data=${PLAY_DATA:-/tmp/play-model}
mkdir -p "$data"
run() { # name deals seed table-args...
  local name=$1 deals=$2 seed=$3; shift 3
  "${py[@]}" arena pimc pimc "$@" --deals "$deals" --seed "$seed" --workers 2 \
    --out "$data/$name.jsonl" --json > "$out/data-$name.json"
}
run h2 300 4803 --players 2
run s3 200 4804 --players 3
run s5 150 4805 --players 5
run s6 100 4806 --players 6
run s7 100 4807 --players 7
