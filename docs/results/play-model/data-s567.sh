#!/usr/bin/env bash
# Step 6 of PLAN.md for solo 5-7: master (before issue 48) in every seat, by the training
# command's own self-play; each table's model and figures in this folder. Resumable: the
# games are kept in $PLAY_DATA's checkpoint files.
set -euo pipefail
out=docs/results/play-model
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
data=${PLAY_DATA:-/tmp/play-model}
mkdir -p "$data"
run() { # table games seed
  "${py[@]}" train play-model --table "$1" --games "$2" --seed "$3" --workers 2 \
    --bot pimc:rollout=heuristic --checkpoint "$data/$1.ckpt" \
    --out "$out/play_model_$1.json" 2>&1 | tee "$out/train-$1.txt"
}
run solo5 750 4805
run solo6 600 4806
run solo7 700 4807
