"""Determinization in the kernel: deal the cards one seat cannot see.

The one determinization of the search bots (``pimc`` and ``ismcts``): a bot packs
its view once per decision (:func:`pitch.fastcore.search.pack_view`) into a
position (the public fields and logs of the hand, and its own cards) and an
``aux`` array (below); :func:`determinize` then writes full positions that agree
with the view, as many as the search wants, without returning to Python.

A deal agrees with the view when every seat keeps the cards it has played, the
seat's own cards are its own, and nobody gets a suit it showed out of (R4.3/R4.4);
the unseen cards are drawn uniformly among such deals by rejection (a few shuffles
of the unseen cards), falling back to a most-constrained-first fill. The auction
is read too (a seat that bid 3 rarely holds no trump): up to ``tries`` deals are
drawn and the first whose heuristic bids (the model of the other seats) are within
``slack`` of the bids made is kept, else the closest.
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import below, entry, njit, popcount
from pitch.fastcore.layout import (
    BID,
    BIDS,
    CONTRACT,
    DEALER,
    DEALT,
    DECK,
    HANDS,
    HEURISTIC,
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    NBIDS,
    PHASE,
    PITCHER,
    TO_ACT,
    TRUMP,
    N,
)
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import Arr, legal_mask, mix, place_bid, step

# The aux array: what the packed position cannot say about the view.
A_SEAT: Final = 0
"""The seat whose view this is."""
A_UNSEEN: Final = 1
"""Cards the seat has not seen: in other hands or undealt (R2.3)."""
A_TRIES: Final = 2
"""Deals drawn per determinization to match the auction (1: ignore the bids)."""
A_SLACK: Final = 3
"""A deal whose bid mismatch is at most this is kept at once."""
A_NEED: Final = 4
"""Per seat (7 slots): the cards still in that hand, to deal (0 for the seat itself)."""
A_FORBID: Final = 11
"""Per seat: cards that seat cannot hold (the suits it showed out of)."""
A_PLAYED_BY: Final = 18
"""Per seat: the cards it has played this hand."""
AUX_SIZE: Final = 25

SCRATCH_SIZE: Final = 88
"""Scratch ints: the unseen pool (52), a seat order, a deal and the best deal (7 each)."""
_POOL: Final = 0
_ORDER: Final = 64
_HID: Final = 72
_BEST: Final = 80

REJECTION_TRIES: Final = 8
GREEDY_TRIES: Final = 200


@njit
def _pool(aux: Arr, sc: Arr) -> int:
    """The unseen cards into ``sc[_POOL:]``; returns how many."""
    m = aux[A_UNSEEN]
    k = 0
    while m:
        low = m & -m
        c = popcount(low - 1)
        sc[_POOL + k] = c
        k += 1
        m ^= low
    return k


@njit
def _shuffle(sc: Arr, k: int, s: int) -> int:
    """Fisher-Yates shuffle of the pool's ``k`` cards; returns the PRNG state."""
    for i in range(k - 1):
        s = step(s)
        j = i + below(mix(s), k - i)
        c = sc[_POOL + j]
        sc[_POOL + j] = sc[_POOL + i]
        sc[_POOL + i] = c
    return s


@njit
def sample_hidden(aux: Arr, n: int, sc: Arr, s: int) -> int:
    """Deal every seat ``t`` its ``aux[A_NEED + t]`` hidden cards from the unseen
    ones, none of them forbidden, into ``sc[_HID + t]``; returns the PRNG state.

    Like :func:`pitch.engine.resample.sample_hidden`: rejection first (uniform over
    consistent deals), then a most-constrained-first greedy fill. A view always has
    a consistent deal (the real one); should both fail, the last greedy attempt is
    completed ignoring voids, so a search never stops on a rare unlucky draw.
    """
    k = _pool(aux, sc)
    for _ in range(REJECTION_TRIES):
        s = _shuffle(sc, k, s)
        i = 0
        ok = True
        for t in range(n):
            m = 0
            for j in range(aux[A_NEED + t]):
                m |= 1 << sc[_POOL + i + j]
            i += aux[A_NEED + t]
            sc[_HID + t] = m
            if m & aux[A_FORBID + t]:
                ok = False
                break
        if ok:
            return s
    # Most constrained first: seats by how few unseen cards they may hold.
    for t in range(n):
        sc[_ORDER + t] = t
    for a in range(1, n):
        b = a
        while b > 0:
            x = sc[_ORDER + b - 1]
            y = sc[_ORDER + b]
            if popcount(aux[A_UNSEEN] & ~aux[A_FORBID + x]) <= popcount(
                aux[A_UNSEEN] & ~aux[A_FORBID + y]
            ):
                break
            sc[_ORDER + b - 1] = y
            sc[_ORDER + b] = x
            b -= 1
    for attempt in range(GREEDY_TRIES):
        s = _shuffle(sc, k, s)
        taken = 0
        ok = True
        for o in range(n):
            t = sc[_ORDER + o]
            want = aux[A_NEED + t]
            bad = taken if attempt == GREEDY_TRIES - 1 else aux[A_FORBID + t] | taken
            m = 0
            for j in range(k):
                if want == 0:
                    break
                b = 1 << sc[_POOL + j]
                if not b & bad:
                    m |= b
                    want -= 1
            if want:
                ok = False
                break
            sc[_HID + t] = m
            taken |= m
        if ok:
            return s
    return s


@njit
def bid_mismatch(w: Arr, aux: Arr, limit: int, s: int) -> tuple[int, int]:
    """How far the heuristic's bids, on the deal in ``w[DEALT..]``, are from the
    bids in ``w``'s log made by the other seats (sum of differences), stopping at
    ``limit``. Replays the hand in ``w`` from its start, so the caller rewrites
    the position afterwards."""
    n = w[N]
    dealer = w[DEALER]
    nbids = w[NBIDS]
    for t in range(n):
        w[HANDS + t] = w[DEALT + t]
    w[PHASE] = BID
    w[TO_ACT] = dealer + 1 if dealer + 1 < n else 0  # R3.1
    w[HIGH_BID] = 0
    w[HIGH_BIDDER] = -1
    w[PITCHER] = -1
    w[CONTRACT] = 0
    w[TRUMP] = -1
    w[LEADER] = -1
    w[NBIDS] = 0
    miss = 0
    for i in range(nbids):
        bid = w[BIDS + i]
        if w[TO_ACT] != aux[A_SEAT]:
            a, s = choose(w, legal_mask(w), HEURISTIC, s)
            d = a - 52 - bid
            miss += d if d > 0 else -d
            if miss >= limit:
                break
        place_bid(w, bid)
    w[NBIDS] = nbids
    return miss, s


@njit
def _fill(pos: Arr, aux: Arr, w: Arr, sc: Arr) -> None:
    """``w`` = the view's position with the hidden hands of ``sc[_HID..]``."""
    for i in range(DECK):
        w[i] = pos[i]
    me = aux[A_SEAT]
    for t in range(pos[N]):
        if t != me:
            w[HANDS + t] = sc[_HID + t]
            w[DEALT + t] = sc[_HID + t] | aux[A_PLAYED_BY + t]


@entry
def determinize(pos: Arr, aux: Arr, w: Arr, sc: Arr, s: int) -> int:
    """Write into ``w`` a full position that agrees with the view packed in ``pos``
    and ``aux`` (see the module docstring); returns the PRNG state. ``sc`` is
    scratch of :data:`SCRATCH_SIZE` ints."""
    n = pos[N]
    tries = aux[A_TRIES]
    if tries <= 1:
        s = sample_hidden(aux, n, sc, s)
        _fill(pos, aux, w, sc)
        return s
    best = 1 << 30
    for _ in range(tries):
        s = sample_hidden(aux, n, sc, s)
        _fill(pos, aux, w, sc)
        miss, s = bid_mismatch(w, aux, best, s)
        if miss < best:
            best = miss
            for t in range(n):
                sc[_BEST + t] = sc[_HID + t]  # remember the best hidden hands
            if miss <= aux[A_SLACK]:
                break
    for t in range(n):
        sc[_HID + t] = sc[_BEST + t]
    _fill(pos, aux, w, sc)
    return s
