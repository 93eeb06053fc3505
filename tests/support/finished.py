"""A finished hand as the search's payoff functions read it, from readable arguments."""

from __future__ import annotations

import random
from typing import Any

from pitch.engine import GameState, Rules
from pitch.fastcore import layout as L
from pitch.fastcore import pack
from pitch.fastcore._jit import new_array


def finished_hand(
    rules: Rules, scores: list[int], delta: tuple[int, ...], pitcher: int
) -> tuple[Any, Any]:
    """A packed position (dealer 0) whose sides had ``scores`` before a hand that
    ``pitcher`` pitched, and that hand's result row giving each side ``delta``."""
    s = GameState(rules, dealer=0)
    s.deal_random(random.Random(0))
    w = pack(s)
    for i, sc in enumerate(scores):
        w[L.SCORES + i] = sc
    w[L.PITCHER] = pitcher
    res = new_array([0] * L.R_SIZE)
    for i, d in enumerate(delta):
        res[L.R_DELTA + i] = d
    return w, res
