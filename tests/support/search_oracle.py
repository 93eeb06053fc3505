"""The PIMC step in readable Python: the test oracle of :mod:`pitch.fastcore.pimc`.

The product values hands only through the kernel's ``hand_value``; these are the
same formulas written out on engine objects, so the kernel has something
independent to be held to (``tests/fastcore/test_pimc_kernel.py``,
``tests/fastcore/test_ismcts.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pitch.engine import Rules
from pitch.engine.state import GameState
from tests.support.policy_oracle import hand_outcome

Rollout = Callable[[GameState, random.Random], tuple[tuple[int, ...], int]]


def hand_value(
    rules: Rules,
    scores: Sequence[int],
    delta: tuple[int, ...],
    pitcher: int,
    side: int,
    bonus: float = 6.0,
) -> float:
    """A side's payoff for a finished hand: its score change relative to the mean of
    the other sides, plus ``bonus`` when the hand takes it out (R6.2), minus it when
    the hand takes another side out. ``scores`` are those before the hand."""
    n = len(delta)
    v = delta[side] - (sum(delta) - delta[side]) / (n - 1)
    if pitcher >= 0:
        pside = rules.side_of(pitcher)
        if scores[pside] + delta[pside] >= rules.target and (
            delta[pside] > 0 or not rules.must_make_bid_to_win
        ):
            v += bonus if pside == side else -bonus
    return v


def action_outcome(
    state: GameState, action: int, rollout: Rollout, rng: random.Random
) -> tuple[tuple[int, ...], int]:
    """Score change per side and pitcher after ``action`` and the rest of the hand."""
    s = state.copy()
    before = len(s.history)
    s.apply_unchecked(action)
    if len(s.history) > before:
        return hand_outcome(s)
    return rollout(s, rng)
