#!/usr/bin/env python3
"""One bot decision at a time through a real ``BotPool`` (one worker, nothing else asking):
what a decision costs when the server is idle, for a before/after comparison of the
pool (run it from each source tree with PYTHONPATH, in turn).

For 12 positions of a 4-player partnership game: the samples a capped PIMC search got
and its wall time, an ISMCTS search's wall time (its cap binds), and the mean round trip
of a ``heuristic`` job (the pool's own overhead).

    PYTHONPATH=src .venv/bin/python scripts/bench_bot_pool.py
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from typing import Any

from pitch.engine import GameState, PlayerView, Rules
from pitch.server.botplay.workers import BotPool


def _views(n: int, seed: int) -> list[PlayerView]:
    rng = random.Random(seed)
    views: list[PlayerView] = []
    while len(views) < n:
        st = GameState(Rules(players=4, partnerships=True), dealer=0)
        st.deal_random(rng)
        for _ in range(rng.randrange(0, 12)):
            st.apply(rng.choice(list(st.legal_actions())))
        if st.current_player() >= 0:
            view = st.view(st.current_player())
            if view.legal.bit_count() > 1:
                views.append(view)
    return views


async def run() -> dict[str, Any]:
    pool = BotPool(1, 30.0)
    try:
        pool.warm()
        while pool.ready() < 1:
            await asyncio.sleep(0.05)
        views = _views(12, 4)
        out: dict[str, Any] = {}
        for spec in ("pimc:samples=5000,time=0.3", "expert:time=0.3"):
            deals, walls = [], []
            for v in views:
                t = time.monotonic()
                a = await pool.run(spec, v, advise=True)
                walls.append(time.monotonic() - t)
                deals.append(a.evidence.deals if a.evidence else 0)
            out[spec] = {
                "deals_median": statistics.median(deals),
                "wall_median_s": round(statistics.median(walls), 3),
                "wall_max_s": round(max(walls), 3),
            }
        t = time.monotonic()
        for v in views * 5:
            await pool.run("heuristic", v)
        out["heuristic_ms_per_job"] = round((time.monotonic() - t) / (5 * len(views)) * 1000, 2)
        return out
    finally:
        pool.close()


if __name__ == "__main__":  # the workers are spawned: they import this module
    print(json.dumps(asyncio.run(run())))
