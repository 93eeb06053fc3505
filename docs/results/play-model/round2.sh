#!/usr/bin/env bash
# Step 7 of PLAN.md. STAGE=data: the data of step 7.1 (step 2's model shipped);
# STAGE=train: step 7.2; STAGE=confirm: step 7.3. From the repository root.
set -euo pipefail
out=docs/results/play-model
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
data=${PLAY_DATA:-/tmp/play-model}
mkdir -p "$data"
case ${STAGE:?data, train or confirm} in
data)
  "${py[@]}" arena pimc:rollout=learned pimc:rollout=learned --partnerships --deals 300 \
    --seed 4841 --workers 2 --out "$data/p7b.jsonl" --json > "$out/data-p7b.json"
  "${py[@]}" arena pimc:rollout=learned pimc:rollout=learned --players 4 --deals 200 \
    --seed 4842 --workers 2 --out "$data/s4b.jsonl" --json > "$out/data-s4b.json" ;;
train)
  "${py[@]}" train play-model "$data/p7b.jsonl" "$data/s4b.jsonl" \
    --out src/pitch/fastcore/play_model.json 2>&1 | tee "$out/train-b.txt"
  cp src/pitch/fastcore/play_model.json "$out/play_model_b.json" ;;
confirm)
  "${py[@]}" arena pimc:rollout=learned pimc --partnerships --deals 600 --seed 4851 \
    --workers 2 --json > "$out/cb-p7.json"
  "${py[@]}" arena pimc:rollout=learned pimc --players 4 --deals 400 --seed 4852 \
    --workers 2 --json > "$out/cb-s4.json"
  python3 "$out/show.py" "$out"/cb-*.json ;;
esac
