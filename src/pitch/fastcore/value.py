"""A hand's worth in games: the chance of winning the game from the scores it leaves.

A learned table (trained by self-play, :mod:`pitch.training.winvalue`) holds, for a side,
the probability that it goes on to win the game, by the number of sides, whether the
side deals the next hand, the points it still needs (the target minus its score) and
the points the closest other side still needs. :func:`win_value` reads it for a
finished hand: 1 if the hand takes the side out (R6.2), 0 if it takes another side
out, the table's chance otherwise. The search then plays for the game rather than
for the hand's points (``pimc:value=win``).
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import njit
from pitch.fastcore.layout import DEALER, R_DELTA, SCORES, SIDES, TARGET, N
from pitch.fastcore.rules import Arr, goes_out, side_of

TOGO_MIN: Final = -2
"""Points still needed are clipped to ``TOGO_MIN..TOGO_MAX`` (a side past the target
that did not pitch needs 0 or fewer, R6.2)."""
TOGO_MAX: Final = 24
TOGO: Final = TOGO_MAX - TOGO_MIN + 1
MIN_SIDES: Final = 2
MAX_SIDES: Final = 7
CELLS: Final = (MAX_SIDES - MIN_SIDES + 1) * 2 * TOGO * TOGO
"""The table's size: sides 2..7, deals next or not, and the two clipped needs."""


@njit
def _clip(togo: int) -> int:
    if togo < TOGO_MIN:
        return 0
    if togo > TOGO_MAX:
        return TOGO - 1
    return togo - TOGO_MIN


@njit
def win_cell(sides: int, deals: int, need: int, other: int) -> int:
    """The table's index for a side of a game of ``sides`` sides that deals the next
    hand (``deals`` 1) or not (0), needing ``need`` points while the closest other
    side needs ``other``."""
    return ((((sides - MIN_SIDES) * 2 + deals) * TOGO) + _clip(need)) * TOGO + _clip(other)


@njit
def win_value(w: Arr, res: Arr, side: int, table: Arr, scale: float) -> float:
    """``scale`` times ``side``'s chance of winning the game after the hand finished
    in ``w`` and scored in ``res`` (see the module docstring)."""
    out = goes_out(w, res, 0)
    if out >= 0:
        return scale if out == side else 0.0
    sides = w[SIDES]
    target = w[TARGET]
    need = target - w[SCORES + side] - res[R_DELTA + side]
    other = 1 << 30
    for j in range(sides):
        if j != side:
            t = target - w[SCORES + j] - res[R_DELTA + j]
            if t < other:
                other = t
    d = w[DEALER] + 1
    deals = 1 if side_of(w, d if d < w[N] else 0) == side else 0
    p: float = table[win_cell(sides, deals, need, other)]
    return scale * p
