"""How well an analysis at one budget agrees with one at a stronger budget.

Reads two ``pitch analyze --json`` outputs of the same games (same record file, any
budgets and seeds) and compares their decisions with a choice: how often they name the
same best action, how often they give the same mark, and how far apart their losses
are; then the mark agreement under other thresholds, recomputed from the values, to
choose the thresholds from (docs/benchmarks.md, *Marks at two budgets*).

    python scripts/analysis_agreement.py weak.json strong.json [more-weak.json more-strong.json ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CANDIDATES = (
    (0.03, 0.06, 0.10),
    (0.05, 0.10, 0.15),
    (0.05, 0.10, 0.20),
    (0.07, 0.14, 0.25),
    (0.10, 0.20, 0.30),
)
"""(inaccuracy, mistake, blunder) thresholds to compare."""


def marks(loss: float, at: tuple[float, float, float]) -> int:
    """0 none, 1 inaccuracy, 2 mistake, 3 blunder."""
    return sum(loss >= t for t in at)


def loss_of(d: dict[str, Any]) -> float:
    values = d["values"]
    return float(max(values.values()) - values[d["action"]])


def decisions(paths: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for p in paths:
        for g in json.loads(Path(p).read_text(encoding="utf-8"))["games"]:
            out.extend(d for d in g["decisions"] if len(d["values"]) > 1)
    return out


def main(args: list[str]) -> None:
    if len(args) < 2 or len(args) % 2:
        raise SystemExit(__doc__)
    weak = decisions(args[0::2])
    strong = decisions(args[1::2])
    if [(d["n"], d["action"]) for d in weak] != [(d["n"], d["action"]) for d in strong]:
        raise SystemExit("the two analyses are not of the same games")
    n = len(weak)
    same_best = sum(a["best"] == b["best"] for a, b in zip(weak, strong, strict=True))
    diffs = [abs(loss_of(a) - loss_of(b)) for a, b in zip(weak, strong, strict=True)]
    cut = sum(d["cut"] for d in weak), sum(d["cut"] for d in strong)
    print(f"{n} decisions with a choice (cut by the time cap: {cut[0]} weak, {cut[1]} strong)")
    print(f"same best action: {same_best} ({100 * same_best / n:.1f}%)")
    diffs.sort()
    print(
        f"|loss difference|: mean {sum(diffs) / n:.4f}, median {diffs[n // 2]:.4f}, "
        f"90th percentile {diffs[int(0.9 * n)]:.4f}, max {diffs[-1]:.4f}"
    )
    print("thresholds (inacc, mistake, blunder): same mark, marked in both / either, counts")
    for at in CANDIDATES:
        mw = [marks(loss_of(d), at) for d in weak]
        ms = [marks(loss_of(d), at) for d in strong]
        same = sum(a == b for a, b in zip(mw, ms, strict=True))
        both = sum(a > 0 and b > 0 for a, b in zip(mw, ms, strict=True))
        either = sum(a > 0 or b > 0 for a, b in zip(mw, ms, strict=True))
        counts = [sum(m == k for m in ms) for k in (1, 2, 3)]
        print(
            f"  {at}: {100 * same / n:5.1f}% same mark; "
            f"{both}/{either} marked by both of those marked by either; "
            f"strong marks {counts}, weak {[sum(m == k for m in mw) for k in (1, 2, 3)]}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
