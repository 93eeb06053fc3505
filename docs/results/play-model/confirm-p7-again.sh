#!/usr/bin/env bash
# Step 8 of PLAN.md: the partnership row of step 2's model, 1,000 fresh deals. Run from
# the repository root of a copy of main (a worktree) whose src/pitch/fastcore/
# play_model.json is docs/results/play-model/play_model.json; nothing else running.
set -euo pipefail
out=docs/results/play-model
cmp "$out/play_model.json" src/pitch/fastcore/play_model.json
py=(env PYTHONPATH=src .venv/bin/python -m pitch)
"${py[@]}" arena pimc:rollout=learned pimc:rollout=heuristic --partnerships --deals 1000 \
  --seed 4861 --workers 2 --json > "$out/c2-p7.json"
python3 "$out/show.py" "$out/c2-p7.json"
PYTHONPATH=src .venv/bin/python "$out/pool.py" "$out/c-p7.json" "$out/c2-p7.json"
