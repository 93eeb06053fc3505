"""Playouts and batched hands: the loops the search bots and self-play spend time in."""

from __future__ import annotations

from pitch.fastcore._jit import entry
from pitch.fastcore.layout import BID, DEALER, N, PHASE, PLAY, POSITION_SIZE, R_DELTA, SIDES
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import Arr, apply, deal, legal_mask, score


@entry
def finish(w: Arr, policy: int, s: int, out: Arr, o: int) -> int:
    """Play the hand in ``w`` to its end under ``policy`` and score it into
    ``out[o:o + R_SIZE]``; returns the PRNG state."""
    while True:
        phase = w[PHASE]
        if phase != BID and phase != PLAY:
            break
        a, s = choose(w, legal_mask(w), policy, s)
        apply(w, a)
    score(w, out, o)
    return s


@entry
def playout_many(pos: Arr, w: Arr, n: int, policy: int, s: int, res: Arr, totals: Arr) -> int:
    """``n`` playouts from the position ``pos`` (``w`` and ``res`` are scratch);
    adds each side's score change to ``totals``; returns the PRNG state."""
    sides = pos[SIDES]
    for _ in range(n):
        for i in range(POSITION_SIZE):
            w[i] = pos[i]
        s = finish(w, policy, s, res, 0)
        for side in range(sides):
            totals[side] += res[R_DELTA + side]
    return s


@entry
def simulate(w: Arr, n: int, policy: int, s: int, res: Arr, out: Arr, width: int) -> int:
    """Deal and play ``n`` independent hands from ``w``'s table, the deal passing
    left after each (R2.4); the first ``width`` ints of hand ``i``'s result go to
    ``out[i * width:]`` (``res`` is scratch); returns the PRNG state."""
    for i in range(n):
        s = deal(w, s)
        s = finish(w, policy, s, res, 0)
        for j in range(width):
            out[i * width + j] = res[j]
        w[DEALER] = (w[DEALER] + 1) % w[N]
    return s
