"""``ismcts`` (expert level): single-observer information-set MCTS.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 4(2), 2012, algorithm SO-ISMCTS. One tree over this seat's information
set; each iteration draws a determinization (:mod:`pitch.bots.sampling`),
descends the tree choosing, among the children legal in that determinization,
the one with the best UCB score where a child's exploration term counts the
iterations in which it was *available* (not its parent's visits), expands one
untried action (the heuristic's choice first), finishes the hand with the
rollout policy, and credits every node on the path with the payoff of the side
that chose it (:func:`pitch.bots.pimc.hand_value`). The tree spans the rest of
the current hand, auction included; the move played is the most visited child.
As in ``pimc``, a bid's node counts going out (R6.2) with the smaller
``bid_bonus``: with the full bonus the tree over-bids, and the more iterations
it runs, the more (docs/bots.md).

Budget: ``iterations`` and/or ``time`` seconds per decision, whichever ends first.

Two engines run this algorithm: ``engine="kernel"`` is the compiled search of
:mod:`pitch.fastcore.ismcts` (the tree in arrays; determinizations, expansions and
rollouts all in machine code, with the kernel's port of the heuristic policy; about
120x more iterations a second, see docs/benchmarks.md), and ``engine="python"`` the loop
below (with :mod:`pitch.bots.sampling`, :func:`pitch.bots.heuristic.state_action`
and the named Python rollout). ``engine="auto"`` (the default) takes the kernel
when numba is installed. The kernel reads ``rollout`` as a policy: ``heuristic``
or ``fast`` (the kernel heuristic), ``random`` or ``fast-random``. Its
``iterations`` default, :data:`KERNEL_ITERATIONS`, is more than fit in a second
on any table, so the time cap is what binds.
"""

from __future__ import annotations

import math
import random
import time as _time
from typing import ClassVar

from pitch import fastcore
from pitch.bots.base import Bot
from pitch.bots.heuristic import hand_outcome, state_action
from pitch.bots.options import SECONDS, Opt
from pitch.bots.pimc import BID_BONUS, ROLLOUTS, WIN_BONUS, hand_value
from pitch.bots.sampling import sample_state
from pitch.engine import BID_BASE, PlayerView
from pitch.fastcore import ismcts as kernel
from pitch.fastcore import layout

REWARD_SCALE = 4.0
"""Payoffs are divided by this so UCB's exploration constant works on about [-1, 1]."""

PYTHON_ITERATIONS = 1000
"""Default iterations per decision of the Python engine."""
KERNEL_ITERATIONS = 500_000
"""Default iterations per decision of the kernel: more than fit in ``time``."""

ENGINES = ("auto", "kernel", "python")
KERNEL_POLICY = {
    "heuristic": layout.HEURISTIC,
    "fast": layout.HEURISTIC,
    "random": layout.RANDOM,
    "fast-random": layout.RANDOM,
}
"""The kernel's rollout policy for each rollout name."""


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class IsmctsBot(Bot):
    """SO-ISMCTS (see the module docstring). ``c`` is the UCB exploration constant."""

    name: ClassVar[str] = "ismcts"
    level: ClassVar[str] = "expert"
    OPTIONS: ClassVar[dict[str, Opt]] = {
        "iterations": Opt(int, 1, 100_000_000, none=True),
        "time": SECONDS,
        "c": Opt(float, 0.0, 100.0),
        "rollout": Opt(str, choices=tuple(ROLLOUTS)),
        "tries": Opt(int, 1, 1000),
        "engine": Opt(str, choices=ENGINES),
        "bid_bonus": Opt(float, 0.0, 100.0),
    }

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        iterations: int | None = None,
        time: float | None = 1.0,
        c: float = 0.7,
        rollout: str = "heuristic",
        tries: int = 6,
        engine: str = "auto",
        bid_bonus: float = BID_BONUS,
    ) -> None:
        super().__init__(rng=rng)
        o = self.checked(locals())
        engine, rollout = o["engine"], o["rollout"]
        self.kernel = engine == "kernel" or (engine == "auto" and fastcore.COMPILED)
        iterations = o["iterations"]
        if iterations is None:
            iterations = KERNEL_ITERATIONS if self.kernel else PYTHON_ITERATIONS
        self.iterations = iterations
        self.time = o["time"]
        self.c = o["c"]
        self.rollout = ROLLOUTS[rollout]
        self.policy = KERNEL_POLICY[rollout]
        self.tries = o["tries"]
        self.bid_bonus = o["bid_bonus"]
        self.last_iterations = 0
        """Iterations of the last search (for benchmarks)."""

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if legal.bit_count() == 1:
            return legal.bit_length() - 1
        deadline = None if self.time is None else _time.perf_counter() + self.time
        if self.kernel:
            tree = kernel.search(
                view,
                self.rng,
                iterations=self.iterations,
                deadline=deadline,
                c=self.c,
                policy=self.policy,
                tries=self.tries,
                bonus=WIN_BONUS,
                bid_bonus=self.bid_bonus,
                scale=REWARD_SCALE,
            )
            self.last_iterations = tree.iterations
            return tree.best()
        rules = view.rules
        scores = view.scores
        root = _Node()
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        done = 0
        for _ in range(self.iterations):
            done += 1
            st = sample_state(view, rng, self.tries)
            side_of = st.side_of
            before = len(st.history)
            node = root
            path: list[tuple[_Node, int, float]] = []
            while len(st.history) == before:
                mask = st.legal_mask()
                side = side_of[st.to_act]
                children = node.children
                untried = []
                best_child: _Node | None = None
                best_a = -1
                best_u = -math.inf
                m = mask
                while m:
                    low = m & -m
                    a = low.bit_length() - 1
                    m ^= low
                    ch = children.get(a)
                    if ch is None:
                        untried.append(a)
                        continue
                    ch.avail += 1
                    u = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best_u, best_child, best_a = u, ch, a
                if untried:
                    h = state_action(st)
                    a = h if h in untried else untried[int(rng.random() * len(untried))]
                    child = _Node()
                    children[a] = child
                    st.apply_unchecked(a)
                    path.append((child, side, self.bid_bonus if a >= BID_BASE else WIN_BONUS))
                    break
                assert best_child is not None
                st.apply_unchecked(best_a)
                path.append((best_child, side, self.bid_bonus if best_a >= BID_BASE else WIN_BONUS))
                node = best_child
            if len(st.history) > before:
                delta, pitcher = hand_outcome(st)
            else:
                delta, pitcher = self.rollout(st, rng)
            values: dict[tuple[int, float], float] = {}
            for n, side, bonus in path:
                v = values.get((side, bonus))
                if v is None:
                    v = values[side, bonus] = (
                        hand_value(rules, scores, delta, pitcher, side, bonus) / REWARD_SCALE
                    )
                n.visits += 1
                n.total += v
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total, -kv[0]))
        return best[0]
