"""The rules as kernels on a packed position (:mod:`pitch.fastcore.layout`).

These mirror :class:`pitch.engine.GameState` line for line (``legal_mask``,
``_bid``, ``_play``) and :func:`pitch.engine.scoring.score_hand`; the differential
tests in ``tests/fastcore`` hold them to it. Hands start from :func:`deal`, which
draws from splitmix64 (a fast, well-mixed 64-bit PRNG whose state is one int).
"""

from __future__ import annotations

from typing import Any, Final

from pitch.fastcore._jit import M64, below, entry, highest, lowest, njit, popcount
from pitch.fastcore.layout import (
    BEST_CARD,
    BEST_SEAT,
    BID,
    BIDS,
    CAPTURED,
    CONTRACT,
    DEALER,
    DEALT,
    DECK,
    HAND_DONE,
    HANDS,
    HIGH_BID,
    HIGH_BIDDER,
    LEAD,
    LEADER,
    LOW_HOLDER,
    MIN_BID,
    MUST_MAKE,
    NBIDS,
    NPLAYED,
    PARTNERS,
    PHASE,
    PITCHER,
    PLAY,
    PLAYED,
    R_COUNTS,
    R_DELTA,
    R_GAME,
    R_HIGH,
    R_HIGH_CARD,
    R_JACK,
    R_JACK_CARD,
    R_LOW,
    R_LOW_CARD,
    R_MADE,
    R_SIZE,
    R_THROWN,
    R_WON,
    REDEAL,
    SCORES,
    SIDES,
    SMUDGE,
    STEAL,
    TARGET,
    THROWN,
    TO_ACT,
    TRICK_LEN,
    TRICK_MASK,
    TRICKS_DONE,
    TRUMP,
    N,
)

Arr = Any  # a numpy int64 array when compiled, a list of ints in Python

SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
PASS_BIT: Final = 1 << 52
# BIDS_FROM[lo]: the bid actions lo..4 as a mask (lo may be 5: none), as in the engine.
BIDS_FROM: Final = tuple(sum(1 << (52 + b) for b in range(lo, 5)) for lo in range(6))
GOLDEN: Final = 0x9E3779B97F4A7C15


@entry
def mix(s: int) -> int:
    """splitmix64's output function: 64 well-mixed bits from a state."""
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


@entry
def step(s: int) -> int:
    """splitmix64's next state."""
    return (s + GOLDEN) & M64


@njit
def suit_of(card: int) -> int:
    """``card // 13`` for a card (0..51) as a multiply and a shift (exact there). numba
    compiles ``//`` on a signed int to a multiply plus sign corrections, which sit on
    every card's path: about 8% of a random hand's time."""
    return (card * 79) >> 10


@njit
def side_of(w: Arr, seat: int) -> int:
    """R1.2: partners are seats 0+2 and 1+3; otherwise each seat is a side."""
    if w[PARTNERS]:
        return seat & 1
    return seat


@entry
def game_points(m: int) -> int:
    """R5.4: ten 10, ace 4, king 3, queen 2, jack 1."""
    return (
        10 * popcount(m & RANK_MASK[8])
        + popcount(m & RANK_MASK[9])
        + 2 * popcount(m & RANK_MASK[10])
        + 3 * popcount(m & RANK_MASK[11])
        + 4 * popcount(m & RANK_MASK[12])
    )


@njit
def deal(w: Arr, s: int) -> int:
    """R2.2: shuffle and deal a new hand from ``w[DEALER]``; returns the PRNG state.

    A partial Fisher-Yates shuffle of ``w[DECK..]``, which stays a permutation, so
    it never needs resetting. Cards go three at a time from the dealer's left.
    """
    n = w[N]
    dealer = w[DEALER]
    for seat in range(7):
        w[HANDS + seat] = 0
        w[CAPTURED + seat] = 0
    seat = dealer
    for packet in range(2 * n):  # three cards at a time, clockwise
        seat = seat + 1 if seat + 1 < n else 0  # (no division by n: it is slow)
        cards = 0  # a local, not the hand's slot: one store a packet, not three
        for i in range(3 * packet, 3 * packet + 3):
            s = step(s)
            j = i + below(mix(s), 52 - i)
            c = w[DECK + j]
            w[DECK + j] = w[DECK + i]
            w[DECK + i] = c
            cards |= 1 << c
        w[HANDS + seat] |= cards
    for seat in range(7):
        w[DEALT + seat] = w[HANDS + seat]
    w[PHASE] = BID
    w[TO_ACT] = dealer + 1 if dealer + 1 < n else 0  # R3.1
    w[HIGH_BID] = 0
    w[HIGH_BIDDER] = -1
    w[PITCHER] = -1
    w[CONTRACT] = 0
    w[TRUMP] = -1
    w[LEAD] = -1
    w[BEST_CARD] = -1
    w[BEST_SEAT] = -1
    w[TRICK_MASK] = 0
    w[TRICK_LEN] = 0
    w[TRICKS_DONE] = 0
    w[LEADER] = -1
    w[NBIDS] = 0
    w[NPLAYED] = 0
    return s


@njit
def bids_from(lo: int) -> int:
    """``BIDS_FROM[lo]`` by arithmetic: indexing the tuple compiles to a jump table,
    whose indirect jump mispredicts in every auction."""
    return (32 - (1 << lo)) << 52


@njit
def legal_mask(w: Arr) -> int:
    """Legal action ids as a mask, exactly as ``GameState.legal_mask`` (R3, R4.3, R4.4)."""
    phase = w[PHASE]
    if phase == PLAY:
        hand = w[HANDS + w[TO_ACT]]
        if w[TRICK_LEN] == 0:
            return int(hand)
        follow = hand & SUIT_MASK[w[LEAD]]
        if follow:
            return int(follow | (hand & SUIT_MASK[w[TRUMP]]))  # R4.3
        return int(hand)  # R4.4
    if phase == BID:
        high = w[HIGH_BID]
        lo = high + 1 if high + 1 > w[MIN_BID] else w[MIN_BID]
        if w[TO_ACT] == w[DEALER]:
            if high == 0:
                if not w[REDEAL]:
                    return bids_from(lo if lo > 2 else 2)  # R3.5
            elif w[STEAL]:
                lo = high  # R3.6
        return int(PASS_BIT | bids_from(lo))
    return 0


@njit
def apply(w: Arr, action: int) -> None:
    """Apply a legal bid or card (unchecked, like ``GameState.apply_unchecked``)."""
    if w[PHASE] == PLAY:
        play_card(w, action)
    else:
        place_bid(w, action - 52)


@njit
def place_bid(w: Arr, bid: int) -> None:
    """R3.1-R3.7; a hand everyone passed is thrown in (house rule ``all_pass='redeal'``)."""
    seat = w[TO_ACT]
    w[BIDS + w[NBIDS]] = bid
    w[NBIDS] += 1
    dealer = w[DEALER]
    if bid and (bid > w[HIGH_BID] or seat == dealer):
        w[HIGH_BID] = bid
        w[HIGH_BIDDER] = seat
    if bid == 4 or seat == dealer:  # R3.4, R3.1
        if w[HIGH_BID] == 0:
            w[PHASE] = THROWN
        else:
            p = w[HIGH_BIDDER]
            w[PITCHER] = p
            w[LEADER] = p
            w[TO_ACT] = p
            w[CONTRACT] = w[HIGH_BID]
            w[PHASE] = PLAY
    else:
        w[TO_ACT] = seat + 1 if seat + 1 < w[N] else 0


@njit
def play_card(w: Arr, card: int) -> None:
    """R4.1-R4.6: play a card; a full trick goes to its winner's side, who leads next."""
    seat = w[TO_ACT]
    bit = 1 << card
    w[HANDS + seat] ^= bit
    w[PLAYED + w[NPLAYED]] = card
    w[NPLAYED] += 1
    suit = suit_of(card)
    if w[TRICK_LEN] == 0:
        if w[TRUMP] < 0:
            w[TRUMP] = suit  # R4.1
        w[LEAD] = suit
        w[BEST_CARD] = card
        w[BEST_SEAT] = seat
        w[TRICK_MASK] = bit
    else:
        best = w[BEST_CARD]
        if suit == suit_of(best):
            if card > best:
                w[BEST_CARD] = card
                w[BEST_SEAT] = seat
        elif suit == w[TRUMP]:  # R4.5
            w[BEST_CARD] = card
            w[BEST_SEAT] = seat
        w[TRICK_MASK] |= bit
    tl = w[TRICK_LEN] + 1
    if tl < w[N]:
        w[TRICK_LEN] = tl
        w[TO_ACT] = seat + 1 if seat + 1 < w[N] else 0
        return
    winner = w[BEST_SEAT]
    w[CAPTURED + side_of(w, winner)] |= w[TRICK_MASK]
    w[TRICK_LEN] = 0
    w[TRICK_MASK] = 0
    w[LEAD] = -1
    w[BEST_CARD] = -1
    w[BEST_SEAT] = -1
    w[TRICKS_DONE] += 1
    w[LEADER] = winner  # R4.6
    w[TO_ACT] = winner
    if w[TRICKS_DONE] == 6:
        w[PHASE] = HAND_DONE


@njit
def _captor(w: Arr, bit: int) -> int:
    """The side that took the card ``bit`` (-1: nobody). Sides' captures are
    disjoint, so every side is looked at: a select each, not a random exit."""
    captor = -1
    for side in range(w[SIDES]):
        captor = side if w[CAPTURED + side] & bit else captor
    return captor


@njit
def score(w: Arr, out: Arr, o: int) -> None:
    """R5: write the hand's result into ``out[o:o + R_SIZE]`` (a thrown-in hand scores 0)."""
    sides = w[SIDES]
    for i in range(R_SIZE):
        out[o + i] = 0
    for i in range(R_HIGH, R_MADE):
        out[o + i] = -1
    out[o + R_HIGH_CARD] = -1
    out[o + R_LOW_CARD] = -1
    out[o + R_JACK_CARD] = -1
    if w[PHASE] == THROWN:
        out[o + R_THROWN] = 1
        return
    in_play = 0
    for seat in range(w[N]):
        in_play |= w[DEALT + seat]
    trump = w[TRUMP]
    trumps = in_play & SUIT_MASK[trump]
    if trumps:
        hc = highest(trumps)  # R5.1, R5.5
        lc = lowest(trumps)
        hi = _captor(w, 1 << hc)
        out[o + R_HIGH] = hi
        out[o + R_HIGH_CARD] = hc
        out[o + R_WON + hi] += 1
        if w[LOW_HOLDER]:  # R5.2 house rule: Low to the side it was dealt to
            lo = -1
            for seat in range(w[N]):
                if w[DEALT + seat] >> lc & 1:
                    lo = side_of(w, seat)
        else:
            lo = _captor(w, 1 << lc)
        out[o + R_LOW] = lo
        out[o + R_LOW_CARD] = lc
        out[o + R_WON + lo] += 1
        jc = trump * 13 + 9
        if trumps >> jc & 1:  # R5.3
            jk = _captor(w, 1 << jc)
            out[o + R_JACK] = jk
            out[o + R_JACK_CARD] = jc
            out[o + R_WON + jk] += 1
    best = -1
    ties = 0
    game = -1
    for side in range(sides):
        c = game_points(w[CAPTURED + side])
        out[o + R_COUNTS + side] = c
        if c > best:
            best = c
            ties = 1
            game = side
        elif c == best:
            ties += 1
    if ties == 1:  # R5.4: a tie for Game scores nobody
        out[o + R_GAME] = game
        out[o + R_WON + game] += 1
    pside = side_of(w, w[PITCHER])
    bid = w[CONTRACT]
    made = out[o + R_WON + pside] >= bid  # R5.6
    out[o + R_MADE] = 1 if made else 0
    for side in range(sides):
        out[o + R_DELTA + side] = out[o + R_WON + side]
    if not made:
        out[o + R_DELTA + pside] = -bid


@njit
def goes_out(w: Arr, res: Arr, o: int) -> int:
    """R6.2, as ``pitch.engine.state.game_end``: the side that the hand scored in
    ``res[o:o + R_SIZE]`` takes out (``-1``: none), from the scores before it in ``w``.
    Only the pitcher's side goes out, on reaching the target (with the bid made, under
    ``must_make_bid_to_win``) or, under ``smudge``, on a Smudge."""
    p = w[PITCHER]
    if p < 0:  # thrown in
        return -1
    ps = side_of(w, p)
    if (  # Smudge (house rule): bid 4, took all four points, from a score of 0 or more
        w[SMUDGE]
        and w[CONTRACT] == 4
        and res[o + R_HIGH] == ps
        and res[o + R_LOW] == ps
        and res[o + R_JACK] == ps
        and res[o + R_GAME] == ps
        and w[SCORES + ps] >= 0
    ):
        return ps
    if w[SCORES + ps] + res[o + R_DELTA + ps] >= w[TARGET] and (
        res[o + R_MADE] or not w[MUST_MAKE]
    ):
        return ps
    return -1
