"""Self-play for the learned bid estimate: every seat pitches every suit it holds.

For each deal of a table, each seat in turn is made the pitcher (it bids 2, the others
pass: R3), leads the top card of one of its suits (R4.1: that suit is trump), and the
hand is played out with the heuristic for every seat (its card play does not read the
contract or the scores). The points the pitcher's side took (R5) are the answer the
model learns, from :func:`pitch.fastcore.policy.suit_features`. The kernel keeps only
the sums a least-squares fit needs (:data:`ACC_SIZE` floats), so a run of millions of
hands needs no memory; :mod:`pitch.training.bidvalue` adds the sums of its tasks and solves.
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import entry, highest, njit
from pitch.fastcore.bidmodel import FEATURES, W_COUNT, W_DENSE, W_LOW
from pitch.fastcore.layout import DEALER, HANDS, HEURISTIC, PARTNERS, R_WON, SIZE, TO_ACT, N
from pitch.fastcore.loops import finish
from pitch.fastcore.policy import suit_features
from pitch.fastcore.rules import SUIT_MASK, Arr, deal, place_bid, play_card, side_of

NONZERO: Final = 11
"""Features a row sets: three one-hot weights and the eight numbers."""
ACC_N: Final = 0
"""``acc`` slots: rows, the sum of the answers, the sum of their squares, then X'y
(:data:`FEATURES`) and X'X (row-major, ``FEATURES`` squared)."""
ACC_Y: Final = 1
ACC_YY: Final = 2
ACC_XY: Final = 3
ACC_XX: Final = ACC_XY + FEATURES
ACC_SIZE: Final = ACC_XX + FEATURES * FEATURES
SCRATCH: Final = 2 * SIZE
"""Ints of ``w`` scratch: the position played and the deal it starts from."""


@njit
def pitched_hand(w: Arr, seat: int, trumps: int, s: int, res: Arr, log: Arr) -> int:
    """From the deal kept in ``w[SIZE:]``, ``seat`` pitches the suit of ``trumps`` (its
    cards of it): it bids 2, the others pass, it leads the top one, and the heuristic
    plays the hand out for every seat; ``res`` holds what each side won. Returns the
    PRNG state."""
    players = w[SIZE + N]
    for j in range(SIZE):
        w[j] = w[SIZE + j]
    for _ in range(players):
        place_bid(w, 2 if w[TO_ACT] == seat else 0)
    play_card(w, highest(trumps))
    return finish(w, HEURISTIC, s, res, 0, log)


@entry
def pitch_every_suit(
    w0: Arr, n: int, s: int, acc: Arr, w: Arr, res: Arr, idx: Arr, val: Arr, log: Arr
) -> int:
    """``n`` deals of the table ``w0`` (a packed table before its first deal), the
    dealer passing left; every seat pitches every suit it holds, and each such hand
    adds its row to ``acc`` (see the module docstring). ``w`` (:data:`SCRATCH` ints),
    ``res``, ``idx`` and ``val`` (:data:`NONZERO` each) and the empty ``log`` are
    scratch. Returns the PRNG state."""
    players = w0[N]
    partnerships = w0[PARTNERS] != 0
    # A row's nonzero features: the three one-hot weights (1.0 each, their places read
    # from the features), then the numbers, always in the same places.
    for j in range(3):
        val[j] = 1.0
    for j in range(3, NONZERO):
        idx[j] = W_DENSE + j - 3
    for i in range(n):
        for j in range(SIZE):
            w[j] = w0[j]
        w[DEALER] = i % players
        s = deal(w, s)
        for j in range(SIZE):
            w[SIZE + j] = w[j]
        for seat in range(players):
            hand = w[SIZE + HANDS + seat]
            for suit in range(4):
                trumps = hand & SUIT_MASK[suit]
                if trumps == 0:
                    continue
                s = pitched_hand(w, seat, trumps, s, res, log)
                y = float(res[R_WON + side_of(w, seat)])
                f = suit_features(hand, suit, players, partnerships)
                idx[0] = f[0]
                idx[1] = W_LOW + f[1]
                idx[2] = W_COUNT + f[2]
                # The numbers in policy.suit_features' order (a tuple of mixed types
                # cannot be indexed by a loop variable in numba).
                val[3] = f[3]
                val[4] = f[4]
                val[5] = f[5]
                val[6] = f[6]
                val[7] = f[7]
                val[8] = f[8]
                val[9] = f[9]
                val[10] = f[10]
                acc[ACC_N] += 1.0
                acc[ACC_Y] += y
                acc[ACC_YY] += y * y
                for a in range(NONZERO):
                    acc[ACC_XY + idx[a]] += val[a] * y
                    row = ACC_XX + idx[a] * FEATURES
                    for b in range(NONZERO):
                        acc[row + idx[b]] += val[a] * val[b]
    return s
