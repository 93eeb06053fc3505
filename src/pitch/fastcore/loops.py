"""Playouts and batched hands: the loops the search bots and self-play spend time in."""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import entry, njit
from pitch.fastcore.layout import (
    BID,
    DEALER,
    LEADER,
    PHASE,
    PITCHER,
    PLAY,
    POSITION_SIZE,
    R_DELTA,
    SIDES,
    TRICKS_DONE,
    N,
)
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import Arr, apply, deal, legal_mask, score

LOG_SIZE: Final = 55
"""A trace log: the legal mask before each action (49 slots), then each trick's winner."""
NO_LOG: Final = 0


@njit
def play_out(w: Arr, policy: int, s: int, out: Arr, o: int, log: Arr) -> int:
    """:func:`finish`'s body, inlined into the loops below: a call per hand would
    pass three arrays (many words each) and keep nothing in registers across it."""
    k = 0
    record = len(log) >= LOG_SIZE
    while True:
        phase = w[PHASE]
        if phase != BID and phase != PLAY:
            break
        legal = legal_mask(w)
        a, s = choose(w, legal, policy, s)
        if record:
            log[k] = legal
            k += 1
            done = w[TRICKS_DONE]
            apply(w, a)
            if w[TRICKS_DONE] != done:
                log[49 + done] = w[LEADER]
        else:
            apply(w, a)
    score(w, out, o)
    return s


@entry
def finish(w: Arr, policy: int, s: int, out: Arr, o: int, log: Arr) -> int:
    """Play the hand in ``w`` to its end under ``policy`` and score it into
    ``out[o:o + R_SIZE]``; returns the PRNG state.

    When ``log`` has :data:`LOG_SIZE` slots it records, for the differential tests,
    the legal mask before each action and each trick's winner (the actions
    themselves are ``w``'s bid and card logs); pass an empty array otherwise.
    """
    return play_out(w, policy, s, out, o, log)


@entry
def playout_many(
    pos: Arr, w: Arr, n: int, policy: int, s: int, res: Arr, totals: Arr, log: Arr
) -> int:
    """``n`` playouts from the position ``pos`` (``w``, ``res`` and the empty ``log``
    are scratch); adds each side's score change to ``totals``; returns the PRNG state."""
    sides = pos[SIDES]
    for _ in range(n):
        for i in range(POSITION_SIZE):
            w[i] = pos[i]
        s = play_out(w, policy, s, res, 0, log)
        for side in range(sides):
            totals[side] += res[R_DELTA + side]
    return s


@entry
def simulate(w: Arr, n: int, policy: int, s: int, res: Arr, out: Arr, width: int, log: Arr) -> int:
    """Deal and play ``n`` independent hands from ``w``'s table, the deal passing
    left after each (R2.4); the first ``width`` ints of hand ``i``'s result go to
    ``out[i * width:]`` (``res`` and the empty ``log`` are scratch); returns the
    PRNG state."""
    for i in range(n):
        s = deal(w, s)
        s = play_out(w, policy, s, res, 0, log)
        for j in range(width):
            out[i * width + j] = res[j]
        d = w[DEALER] + 1
        w[DEALER] = d if d < w[N] else 0  # a compare, not a division
    return s


@entry
def new_hand(w: Arr, s: int) -> int:
    """Deal a new hand into ``w`` (see :func:`pitch.fastcore.rules.deal`)."""
    return deal(w, s)


@entry
def evaluate(
    pos: Arr, w: Arr, actions: Arr, policy: int, s: int, res: Arr, out: Arr, log: Arr
) -> int:
    """For each legal action of the position ``pos``: apply it, finish the hand under
    ``policy`` and write each side's score change and the pitcher (-1: thrown in)
    to row ``i`` of ``out`` (8 ints a row). One call per determinization in PIMC."""
    sides = pos[SIDES]
    for i in range(len(actions)):
        for j in range(POSITION_SIZE):
            w[j] = pos[j]
        apply(w, actions[i])
        s = play_out(w, policy, s, res, 0, log)
        for side in range(sides):
            out[i * 8 + side] = res[R_DELTA + side]
        out[i * 8 + 7] = w[PITCHER]
    return s
