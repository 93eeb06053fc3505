"""``ismcts`` (expert level): single-observer information-set MCTS.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 4(2), 2012, algorithm SO-ISMCTS. One tree over this seat's information
set; each iteration draws a determinization (:mod:`pitch.fastcore.determinize`),
descends the tree choosing, among the children legal in that determinization,
the one with the best UCB score where a child's exploration term counts the
iterations in which it was *available* (not its parent's visits), expands one
untried action (the heuristic's choice first), finishes the hand with the
rollout policy (``rollout=heuristic``, the default, ``random`` or ``learned``), and credits
every node on the path with the payoff of the side that chose it
(:func:`pitch.fastcore.pimc.hand_value`). The tree spans the rest of the current
hand, auction included; the move played is the most visited child. As in
``pimc``, a bid's node counts going out (R6.2) with the smaller ``bid_bonus``:
with the full bonus the tree over-bids, and the more iterations it runs, the more
(docs/bots.md).

The search is the kernel's (:mod:`pitch.fastcore.ismcts`: the tree in arrays,
machine code with numba, the same source as Python without); this class sets it
up and reads the move from the tree.

Budget: ``iterations`` and/or ``time`` seconds per decision, whichever ends first.
The ``iterations`` default, :data:`ITERATIONS`, is more than fit in a second on
any table, so the time cap is what binds.
"""

from __future__ import annotations

import random
from typing import ClassVar

from pitch import fastcore
from pitch.bots.base import Bot, deadline
from pitch.bots.explain import Advice
from pitch.bots.options import SECONDS, Opt
from pitch.bots.pimc import BID_BONUS, ROLLOUTS, WIN_BONUS
from pitch.engine import PlayerView
from pitch.fastcore import ismcts as kernel
from pitch.fastcore.search import Sliced, drain

REWARD_SCALE = 4.0
"""Payoffs are divided by this so UCB's exploration constant works on about [-1, 1]."""

ITERATIONS = 500_000
"""Default iterations per decision: more than fit in ``time``."""


class IsmctsBot(Bot):
    """SO-ISMCTS (see the module docstring). ``c`` is the UCB exploration constant."""

    name: ClassVar[str] = "ismcts"
    level: ClassVar[str] = "expert"
    OPTIONS: ClassVar[dict[str, Opt]] = {
        "iterations": Opt(int, 1, 100_000_000),
        "time": SECONDS,
        "c": Opt(float, 0.0, 100.0),
        "rollout": Opt(str, choices=ROLLOUTS),
        "tries": Opt(int, 1, 1000),
        "bid_bonus": Opt(float, 0.0, 100.0),
    }

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        iterations: int = ITERATIONS,
        time: float | None = 1.0,
        c: float = 0.7,
        rollout: str = "heuristic",
        tries: int = 6,
        bid_bonus: float = BID_BONUS,
    ) -> None:
        super().__init__(rng=rng)
        o = self.checked(locals())
        self.iterations = o["iterations"]
        self.time = o["time"]
        self.c = o["c"]
        self.policy = fastcore.policy_mask(o["rollout"])
        self.tries = o["tries"]
        self.bid_bonus = o["bid_bonus"]
        self.last_iterations = 0
        """Iterations of the last search (for benchmarks)."""

    def act(self, view: PlayerView) -> int:
        return self.decide(view).action

    def warm_up(self) -> None:
        fastcore.warm_up()

    def decide(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Advice:
        return drain(self.sliced(view, since=since, by=by))

    def sliced(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Sliced[Advice]:
        legal = view.legal
        if legal.bit_count() == 1:
            return Advice(legal.bit_length() - 1)
        tree = yield from kernel.sliced(
            view,
            self.rng,
            iterations=self.iterations,
            deadline=deadline(self.time, since, by),
            c=self.c,
            policy=self.policy,
            tries=self.tries,
            bonus=WIN_BONUS,
            bid_bonus=self.bid_bonus,
            scale=REWARD_SCALE,
        )
        self.last_iterations = tree.iterations
        return Advice(tree.best())
