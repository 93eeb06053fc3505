"""Do two versions of the search bots make the same decisions? (issue #18, paired check)

``record`` plays seeded positions (from random games: partnership and solo tables,
scores near and far from the target, auction and play) through the given bot specs
with fixed budgets and no time cap, one fresh bot per position seeded by its index,
and writes every decision to a JSON file. Run it once per version, each with its own
source first on the path; ``compare`` then counts the identical decisions.

    PYTHONPATH=/old/src python scripts/compare_decisions.py record old.json
    PYTHONPATH=src python scripts/compare_decisions.py record new.json
    python scripts/compare_decisions.py compare old.json new.json

The positions are made by the engine alone (random legal actions), so they do not
depend on the bots being compared.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from pitch.bots import make_bot
from pitch.engine import BID, PLAY, GameState, Rules

SPECS = ("pimc:samples=1000,time=3600", "ismcts:iterations=2000,time=3600")
"""master's and expert's bots with their sample budget and no time cap (master's
default is ``samples=1000``; expert's 1 s cap is replaced by 2,000 iterations)."""

TABLES = (
    Rules(players=4, partnerships=True),
    Rules(players=4),
    Rules(players=3),
    Rules(players=4, partnerships=True, target=11),
    Rules(players=5),
)


def positions(count: int, seed: int) -> list[GameState]:
    """``count`` states with a choice for the seat to act, from random games."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        rules = TABLES[len(out) % len(TABLES)]
        s = GameState(rules, dealer=rng.randrange(rules.players))
        t = rules.target
        s.scores = [rng.choice((0, rng.randint(-3, t - 1), t - 2, t - 1)) for _ in s.scores]
        s.deal_random(rng)
        # About a third in the auction, the rest in the play.
        last = rules.players if rng.random() < 0.35 else 6 * rules.players + 4
        stop = rng.randrange(0, last)
        for _ in range(stop):
            if s.phase not in (BID, PLAY) or len(s.history):
                break
            s.apply(rng.choice(list(s.legal_actions())))
        if s.phase in (BID, PLAY) and not s.history and s.legal_mask().bit_count() > 1:
            out.append(s)
    return out


def record(out: Path, count: int, seed: int, specs: list[str]) -> None:
    states = positions(count, seed)
    result: dict[str, Any] = {"count": count, "seed": seed, "decisions": {}, "seconds": {}}
    result["cpu_seconds"] = {}
    make_bot(specs[0]).act(states[0].view(states[0].current_player()))  # load the kernels
    for spec in specs:
        t0, c0 = time.perf_counter(), time.process_time()
        acts = []
        for i, s in enumerate(states):
            bot = make_bot(spec, rng=random.Random(i))
            acts.append(bot.act(s.view(s.current_player())))
        result["decisions"][spec] = acts
        result["seconds"][spec] = round(time.perf_counter() - t0, 2)
        result["cpu_seconds"][spec] = round(time.process_time() - c0, 2)
        bids = sum(1 for s in states if s.phase == BID)
        print(
            f"{spec}: {count} positions ({bids} bids) in {result['seconds'][spec]} s, "
            f"{result['cpu_seconds'][spec]} CPU s"
        )
    out.write_text(json.dumps(result))


def compare(a: Path, b: Path) -> int:
    ra, rb = json.loads(a.read_text()), json.loads(b.read_text())
    assert (ra["count"], ra["seed"]) == (rb["count"], rb["seed"]), "not the same positions"
    states = positions(ra["count"], ra["seed"])
    differ = 0
    # Specs are paired in order, so a renamed option can be compared with its old name.
    for (spec, da), (spec_b, db) in zip(
        ra["decisions"].items(), rb["decisions"].items(), strict=True
    ):
        if spec_b != spec:
            spec = f"{spec} / {spec_b}"
        diff = [i for i, (x, y) in enumerate(zip(da, db, strict=True)) if x != y]
        differ += len(diff)
        kinds = {"bid" if states[i].phase == BID else "card" for i in diff}
        print(
            f"{spec}: {len(da) - len(diff)} of {len(da)} decisions identical"
            + (f"; differ at {diff[:20]} ({', '.join(sorted(kinds))})" if diff else "")
        )
    return differ


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("out", type=Path)
    r.add_argument("--positions", type=int, default=300)
    r.add_argument("--seed", type=int, default=18)
    r.add_argument("--spec", action="append", help="bot specs (default: master, expert)")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = p.parse_args()
    if args.cmd == "record":
        record(args.out, args.positions, args.seed, args.spec or list(SPECS))
    else:
        sys.exit(1 if compare(args.a, args.b) else 0)


if __name__ == "__main__":
    main()
