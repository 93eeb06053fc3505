"""CPU time of one ``heuristic`` (club) decision on a view: ``fastcore.search.view_action``
over 2,000 positions of 7 tables, best of 5 (docs/benchmarks.md).

    PYTHONPATH=. .venv/bin/python scripts/bench_view_action.py
"""

from __future__ import annotations

import time

from tests.fastcore.policycheck import states

from pitch.fastcore.search import view_action


def main() -> None:
    views = [s.view(s.to_act) for s in states(7, 2000)]
    view_action(views[0])  # load the kernel first
    best = float("inf")
    for _ in range(5):
        t = time.process_time()
        for v in views:
            view_action(v)
        best = min(best, (time.process_time() - t) / len(views))
    print(f"view_action: {best * 1e6:.1f} us a decision (best of 5, CPU time, {len(views)} views)")


if __name__ == "__main__":
    main()
