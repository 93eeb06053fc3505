"""``ismcts`` (master level): single-observer information-set MCTS.

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

Budget: ``iterations`` and/or ``time`` seconds per decision, whichever ends first.
"""

from __future__ import annotations

import math
import random
import time as _time
from typing import ClassVar

from pitch.bots.base import Bot
from pitch.bots.heuristic import hand_outcome, state_action
from pitch.bots.pimc import ROLLOUTS, hand_value
from pitch.bots.sampling import sample_state
from pitch.engine import PlayerView

REWARD_SCALE = 4.0
"""Payoffs are divided by this so UCB's exploration constant works on about [-1, 1]."""


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
    level: ClassVar[str] = "master"

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        iterations: int = 1000,
        time: float | None = 1.0,
        c: float = 0.7,
        rollout: str = "heuristic",
        tries: int = 6,
    ) -> None:
        super().__init__(rng=rng)
        if int(iterations) < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time is not None and float(time) <= 0:
            raise ValueError(f"time must be positive seconds, not {time}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.iterations = int(iterations)
        self.time = float(time) if time is not None else None
        self.c = float(c)
        self.rollout = ROLLOUTS[rollout]
        self.tries = int(tries)

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if legal.bit_count() == 1:
            return legal.bit_length() - 1
        deadline = None if self.time is None else _time.perf_counter() + self.time
        rules = view.rules
        scores = view.scores
        root = _Node()
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        for _ in range(self.iterations):
            st = sample_state(view, rng, self.tries)
            side_of = st.side_of
            before = len(st.history)
            node = root
            path: list[tuple[_Node, int]] = []
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
                    path.append((child, side))
                    break
                assert best_child is not None
                st.apply_unchecked(best_a)
                path.append((best_child, side))
                node = best_child
            if len(st.history) > before:
                delta, pitcher = hand_outcome(st)
            else:
                delta, pitcher = self.rollout(st, rng)
            values: dict[int, float] = {}
            for n, side in path:
                v = values.get(side)
                if v is None:
                    v = values[side] = (
                        hand_value(rules, scores, delta, pitcher, side) / REWARD_SCALE
                    )
                n.visits += 1
                n.total += v
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total, -kv[0]))
        return best[0]
