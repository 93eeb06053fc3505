"""Heuristic hands a second on one thread, whole hands from the deal (the auction
included), the best of three runs of 200,000 hands: what the bidding costs.

    python scripts/bench_heuristic_hands.py
"""

import time

from pitch.engine import Rules
from pitch.fastcore import simulate_hands, warm_up

warm_up()
for rules in (Rules(players=4, partnerships=True), Rules(players=7)):
    best = 0.0
    for i in range(3):
        t = time.perf_counter()
        simulate_hands(rules, 200_000, 1 + i, "heuristic")
        dt = time.perf_counter() - t
        best = max(best, 200_000 / dt)
    print(
        f"{rules.players}p{' pairs' if rules.partnerships else ''}: {best:,.0f} heuristic hands/s"
    )
