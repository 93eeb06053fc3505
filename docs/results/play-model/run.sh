#!/usr/bin/env bash
# Steps 1-3 of PLAN.md (data, model, exploration), with the seeds declared there.
# Run from the repository root, with nothing else running: bash docs/results/play-model/run.sh
set -euo pipefail
out=docs/results/play-model
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
data=${PLAY_DATA:-/tmp/play-model}
mkdir -p "$data"
"${py[@]}" arena pimc pimc --partnerships --deals 300 --seed 4801 --workers 2 \
  --out "$data/p7.jsonl" --json > "$out/data-p7.json"
"${py[@]}" arena pimc pimc --players 4 --deals 200 --seed 4802 --workers 2 \
  --out "$data/s4.jsonl" --json > "$out/data-s4.json"
"${py[@]}" train play-model "$data/p7.jsonl" "$data/s4.jsonl" \
  --out src/pitch/fastcore/play_model.json 2>&1 | tee "$out/train.txt"
cp src/pitch/fastcore/play_model.json "$out/play_model.json"
"${py[@]}" arena pimc:rollout=learned pimc --partnerships --deals 100 --seed 4811 \
  --workers 2 --json > "$out/x-p7.json"
"${py[@]}" arena pimc:rollout=learned pimc --players 4 --deals 100 --seed 4812 \
  --workers 2 --json > "$out/x-s4.json"
python3 "$out/show.py" "$out"/x-*.json
