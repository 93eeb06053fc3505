#!/usr/bin/env python3
"""Is a protocol bot on time? ``pitch bot BOT`` as a process, timed by its host (issue 48).

Starts ``python -m pitch bot BOT --seed S`` (optionally beside ``--hogs`` CPU-bound
processes, ``python3 -c 'while True: pass'``, stopped at the end), plays ``--games``
games of ``--players`` (``--partnerships``) to ``--target`` with it in seat 0 and the
heuristic in the other seats, each ``act`` asking for ``--time`` seconds, and reports,
by the host's clock: start to ready (the bot's answer to ``hello``, when it answers one),
the first decision, the slowest and the median, and how many decisions took longer than
the budget plus ``--late`` seconds. One process plays every game, as a table's seat or
``pitch arena --keep-ext`` keeps it.

    PYTHONPATH=src .venv/bin/python scripts/bench_bot_deadline.py master --time 1 --hogs 2

Run another source tree (a before/after comparison) with PYTHONPATH.

``--slices N`` measures instead what looking at the clock costs the search: N samples
of a partnership bid by ``PimcSearch.values`` in one kernel call, in batches of 256 (no
deadline) and in deadline-sized slices (a deadline an hour away), five rounds
interleaved, samples a second (median and best).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pitch.bots.base import Bot
from pitch.bots.external import ExternalBot
from pitch.bots.heuristic import HeuristicBot
from pitch.bots.runner import play_game
from pitch.engine import Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.timed_bot import Timed


def hogs(n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen(["python3", "-c", "while True: pass"]) for _ in range(n)]


def slices(n: int) -> dict[str, Any]:
    from pitch import fastcore
    from pitch.engine import GameState
    from pitch.fastcore.search import PimcSearch

    fastcore.warm_up()
    state = GameState(Rules(players=4, partnerships=True), dealer=0)
    state.deal_random(random.Random(3))
    view = state.view(state.current_player())
    legal = list(view.legal_actions())
    rates: dict[str, list[float]] = {"one_call": [], "batches_256": [], "deadline_slices": []}
    for _ in range(5):
        for name, xs in rates.items():
            search = PimcSearch()
            if name == "one_call":
                search.MAX_BATCH = n
            far = time.perf_counter() + 3600 if name == "deadline_slices" else None
            t0 = time.perf_counter()
            search.values(view, legal, n, 2.0, random.Random(1), deadline=far)
            xs.append(n / (time.perf_counter() - t0))
    out: dict[str, Any] = {
        k: [round(statistics.median(v)), round(max(v))] for k, v in rates.items()
    }
    out["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", nargs="?", default="master", help="the bot (pitch bot BOT)")
    ap.add_argument("--time", type=float, default=1.0, help="seconds a decision (act's time)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--partnerships", action="store_true")
    ap.add_argument("--target", type=int, default=7)
    ap.add_argument("--hogs", type=int, default=0, help="CPU-bound processes beside it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--late", type=float, default=0.2, help="a decision past time + this is late")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--slices", type=int, default=0, help="measure the clock's cost instead")
    a = ap.parse_args()
    if a.slices:
        print(json.dumps(slices(a.slices)))
        return 0
    rules = Rules(players=a.players, partnerships=a.partnerships, target=a.target)
    command = [sys.executable, "-m", "pitch", "bot", a.bot, "--seed", str(a.seed)]
    running = hogs(a.hogs)
    try:
        time.sleep(0.5 if running else 0.0)  # the hogs are running before the bot starts
        ext = ExternalBot(command=command, time=a.time, grace=5.0, startup=60.0)
        ready = None
        t0 = time.perf_counter()
        if hasattr(ext, "ready"):  # the handshake, where the host has it
            ext.warm_up()
            ready = time.perf_counter() - t0 if ext.ready else None
        timed = Timed(ext)
        deals = random.Random(a.seed)
        for _ in range(a.games):
            seats: list[Bot] = [timed]
            seats += [HeuristicBot(rng=random.Random(i)) for i in range(1, a.players)]
            play_game(rules, seats, deals)
        ext.close()
    finally:
        for p in running:
            p.kill()
            p.wait()
    s = timed.seconds
    out: dict[str, Any] = {
        "bot": a.bot,
        "time_s": a.time,
        "hogs": a.hogs,
        "games": a.games,
        "rules": rules.to_dict(),
        "start_to_ready_s": None if ready is None else round(ready, 2),
        "decisions": len(s),
        "first_s": round(s[0], 3),
        "median_s": round(statistics.median(s), 3),
        "slowest_s": round(max(s), 3),
        "slowest_after_first_s": round(max(s[1:], default=0.0), 3),
        "late": sum(x > a.time + a.late for x in s),
        "forfeits": len(ext.forfeits),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>16}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
