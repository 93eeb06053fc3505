#!/usr/bin/env bash
# Step 4 of PLAN.md: the declared confirmatory tests (the model of run.sh shipped in
# src/pitch/fastcore/play_model.json). Run from the repository root, nothing else running.
set -euo pipefail
out=docs/results/play-model
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
"${py[@]}" arena pimc:rollout=learned pimc --partnerships --deals 400 --seed 4821 \
  --workers 2 --json > "$out/c-p7.json"
"${py[@]}" arena pimc:rollout=learned pimc --players 4 --deals 400 --seed 4822 \
  --workers 2 --json > "$out/c-s4.json"
python3 "$out/show.py" "$out"/c-*.json
