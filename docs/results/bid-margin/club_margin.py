"""`club` with another base bid margin, for the runs of this folder (not part of the product).

The heuristic's bids (pitch.fastcore.policy) restated in Python with the base margin as
a parameter; its card play is the kernel's (`view_action`). `clubm10` (margin +0.1) bids
exactly as the heuristic did before commit `b221217` at every table (0 difference on
2,000 partnership deals, and the solo tables, which kept +0.1, are unchanged).

    PYTHONPATH=docs/results/bid-margin python docs/results/bid-margin/club_margin.py \
        heuristic clubm10 --players 0 --deals 10000 --seed 2026201 --workers 2 --json OUT

`--players 0` is the partnership game; 2 is heads-up; 3-7 solo.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from pitch.arena import match as arena
from pitch.bots.base import Bot
from pitch.bots.registry import register
from pitch.engine import PlayerView, Rules
from pitch.fastcore.search import hand_estimate, view_action

BID_PHASE = 1
BID_BASE = 52  # action id of "pass"; 52 + b bids b


class ClubMargin(Bot):
    name = "club-margin"
    level = "club"

    def __init__(self, margin: float, four: float = 0.35) -> None:
        super().__init__()
        self.margin, self.four = margin, four

    def act(self, view: PlayerView) -> int:
        if view.phase != BID_PHASE:
            return view_action(view)
        rules = view.rules
        part = rules.partnerships
        estimate = hand_estimate(view.hand, rules.players, part)[1]

        def side(s: int) -> int:
            return s & 1 if part else s

        me = side(view.seat)
        scores = view.scores
        margin = self.margin
        opp_near = any(s != me and scores[s] >= rules.target - 2 for s in range(len(scores)))
        if opp_near:
            margin -= 0.35
        if scores[me] + estimate >= rules.target and not rules.must_make_bid_to_win:
            margin -= 0.2
        high = view.high_bidder
        if part and high is not None and high >= 0 and side(high) == me and not opp_near:
            margin += 0.5
        want = 0
        for b in range(1, 4):
            if estimate >= b + margin:
                want = b
        if estimate >= 4 + margin + self.four:
            want = 4
        bids = view.legal >> BID_BASE
        for b in range(want, 0, -1):
            if bids >> b & 1:
                return BID_BASE + b
        if bids & 1:
            return BID_BASE
        return BID_BASE + ((bids & -bids).bit_length() - 1)


MARGINS = {
    "m00": 0.0, "m10": 0.1, "m20": 0.2, "m30": 0.3, "m45": 0.45,
    "n10": -0.1, "n20": -0.2, "n30": -0.3, "n45": -0.45, "n60": -0.6,
}  # fmt: skip


def _factory(margin: float) -> Callable[..., Bot]:
    def make(**_: object) -> Bot:
        return ClubMargin(margin)

    return make


for _tag, _m in MARGINS.items():
    register("club" + _tag, _factory(_m))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--players", type=int, default=0)
    p.add_argument("--target", type=int, default=7)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json")
    a = p.parse_args()
    if a.players == 0:
        rules = Rules(players=4, partnerships=True, target=a.target)
    else:
        rules = Rules(players=a.players, target=a.target)
    cfg = arena.ArenaConfig(a.a, a.b, rules, a.deals, a.seed)
    results = list(arena.run_local(cfg, list(range(a.deals)), workers=a.workers))
    d = arena.summarize(cfg, results).to_dict()
    if a.json:
        with open(a.json, "w") as f:
            f.write(json.dumps(d) + "\n")  # as `pitch arena --json` writes it
    pts, games = d["paired_difference"], d["paired_game_difference"]
    print(
        f"{a.a} - {a.b}, players {a.players}, target {a.target}, {a.deals} deals, seed {a.seed}:"
        f" points a hand {pts['estimate']:+.3f} [{pts['low']:+.3f}, {pts['high']:+.3f}],"
        f" games {games['estimate']:+.3f} [{games['low']:+.3f}, {games['high']:+.3f}],"
        f" auctions {[x['bids_won'] for x in d['bots']]},"
        f" set rate {[round(x.get('set_rate') or 0, 3) for x in d['bots']]}"
    )


if __name__ == "__main__":
    main()
