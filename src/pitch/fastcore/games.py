"""Whole games in the kernel: deal, bid, play and score hand after hand until a side
goes out (R6.2), for self-play training (:mod:`pitch.training.winvalue`).

Each side at each hand's start is counted in its cell of the win table
(:mod:`pitch.fastcore.value`), and again when it went on to win that game, so that a
learner can ask, of any score on any deal, how often the side won from there.
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import below, entry
from pitch.fastcore.layout import DEALER, R_DELTA, SCORES, SIDES, TARGET, N
from pitch.fastcore.loops import play_out
from pitch.fastcore.rules import Arr, deal, goes_out, mix, side_of, step
from pitch.fastcore.value import win_cell

ROW: Final = 8
"""Ints per hand start kept while a game is played: the dealer, then 7 score slots."""
STATS: Final = 3
"""``stats``: games finished, games left unfinished, hands played."""


@entry
def play_games(
    w: Arr,
    n: int,
    policy: int,
    s: int,
    max_hands: int,
    res: Arr,
    rows: Arr,
    counts: Arr,
    stats: Arr,
    log: Arr,
) -> int:
    """Play ``n`` games of ``w``'s table under ``policy``, each from scores 0 and a
    random first dealer, the deal passing left after each hand (R2.4), and count, for
    each side at the start of each hand of a finished game, its win table cell
    (:func:`~pitch.fastcore.value.win_cell`): ``counts[2 * cell]`` times there,
    ``counts[2 * cell + 1]`` of them in games it won. A game not over after
    ``max_hands`` hands is left out. ``rows`` (``max_hands * ROW`` ints), ``res`` and the
    empty ``log`` are scratch; :data:`STATS` figures are added to ``stats``. Returns the
    PRNG state."""
    sides = w[SIDES]
    target = w[TARGET]
    for _ in range(n):
        for j in range(7):
            w[SCORES + j] = 0
        s = step(s)
        w[DEALER] = below(mix(s), w[N])
        winner = -1
        hands = 0
        while hands < max_hands:
            rows[hands * ROW] = w[DEALER]
            for j in range(7):
                rows[hands * ROW + 1 + j] = w[SCORES + j]
            hands += 1
            s = deal(w, s)
            s = play_out(w, policy, s, res, 0, log)
            out = goes_out(w, res, 0)  # reads the scores before the hand
            for j in range(sides):
                w[SCORES + j] += res[R_DELTA + j]
            d = w[DEALER] + 1
            w[DEALER] = d if d < w[N] else 0
            if out >= 0:
                winner = out
                break
        stats[2] += hands
        if winner < 0:
            stats[1] += 1
            continue
        stats[0] += 1
        for h in range(hands):
            b = h * ROW
            dealer_side = side_of(w, rows[b])
            for i in range(sides):
                other = 1 << 30
                for j in range(sides):
                    if j != i and target - rows[b + 1 + j] < other:
                        other = target - rows[b + 1 + j]
                deals = 1 if dealer_side == i else 0
                cell = win_cell(sides, deals, target - rows[b + 1 + i], other)
                counts[2 * cell] += 1
                if winner == i:
                    counts[2 * cell + 1] += 1
    return s
