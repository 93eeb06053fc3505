"""The two playout policies: uniformly random, and a cheap card-play heuristic.

The heuristic (per seat, chosen by a bit of the policy mask) sees the whole deal,
as a playout does, and plays by a few rules of thumb:

* **Bidding.** Rate each suit as trump: +1 for its ace (High), +1 for its jack,
  +1 for its 2 or 3 (Low), +1 with three or more cards of it (length wins Game).
  Bid the best rating when that bid is legal; else pass (or make the lowest bid
  when passing is not allowed).
* **Leading.** The pitcher's first lead is the top card of its best suit (which
  makes it trump). Later, lead the top trump when no other hand holds a higher
  one; otherwise shed the cheapest side card.
* **Following.** When the partner is winning, shed (and smear a ten as the last
  to play). Otherwise win as cheaply as possible (lowest winning card of the suit
  led, else lowest winning trump); when it cannot win, shed the cheapest card.
* **Cheapest** means a non-trump first, and by rank 2..9, then J, Q, K, A, and
  the ten last, so that Game points are kept.
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore._jit import below, entry, highest, lowest, njit, popcount
from pitch.fastcore.layout import (
    BEST_CARD,
    BEST_SEAT,
    HANDS,
    TO_ACT,
    TRICK_LEN,
    TRUMP,
    N,
)
from pitch.fastcore.rules import RANK_MASK, SUIT_MASK, Arr, mix, side_of, step

SHED_ORDER: Final = (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 8)
"""Ranks from cheapest to dearest to give away: 2-9, J, Q, K, A, then the ten."""
LOW_RANKS: Final = (1 << 0) | (1 << 1)  # the 2 and the 3 of a suit


@entry
def pick_random(mask: int, s: int) -> tuple[int, int]:
    """A uniformly random set bit of ``mask``: ``(action, new PRNG state)``."""
    s = step(s)
    k = below(mix(s), popcount(mask))
    # Drop the k lowest set bits. A loop of k steps mispredicts its exit about every
    # other action; six selects cover every legal mask (6 cards, or pass + 4 bids)
    # without a branch, and the loop after them never runs in this game.
    for i in range(6):
        fewer = mask & (mask - 1)
        mask = fewer if i < k else mask
    for _ in range(k - 6):
        mask &= mask - 1
    return lowest(mask), s


@entry
def suit_rating(hand: int, suit: int) -> int:
    cards = (hand >> (13 * suit)) & 0x1FFF
    r = (cards >> 12) & 1  # ace
    r += (cards >> 9) & 1  # jack
    if cards & LOW_RANKS:
        r += 1
    if popcount(cards) >= 3:
        r += 1
    return r


@entry
def best_suit(hand: int) -> int:
    best = 0
    rating = -1
    for suit in range(4):
        r = suit_rating(hand, suit) * 16 + popcount(hand & SUIT_MASK[suit])
        if r > rating:
            rating = r
            best = suit
    return best


@entry
def cheapest(mask: int, trump: int) -> int:
    """The card of ``mask`` that costs least to give away (side cards first)."""
    m = mask & ~SUIT_MASK[trump] if trump >= 0 else mask
    if m == 0:
        m = mask
    for r in SHED_ORDER:
        x = m & RANK_MASK[r]
        if x:
            return lowest(x)
    return lowest(mask)


@njit
def heuristic_bid(w: Arr, legal: int) -> int:
    hand = w[HANDS + w[TO_ACT]]
    est = suit_rating(hand, best_suit(hand))
    if est > 4:
        est = 4
    bids = legal >> 52
    if est > 0 and bids >> est & 1:
        return 52 + est
    if bids & 1:
        return 52  # pass
    return 52 + lowest(bids)


@njit
def heuristic_card(w: Arr, legal: int) -> int:
    seat = w[TO_ACT]
    hand = w[HANDS + seat]
    trump = w[TRUMP]
    if w[TRICK_LEN] == 0:
        if trump < 0:
            return highest(hand & SUIT_MASK[best_suit(hand)])  # R4.1: this sets trump
        tr = hand & SUIT_MASK[trump]
        if tr:
            others = 0
            for p in range(w[N]):
                if p != seat:
                    others |= w[HANDS + p]
            ot = others & SUIT_MASK[trump]
            top = highest(tr)
            if ot == 0 or top > highest(ot):
                return top
        return cheapest(hand, trump)
    best = w[BEST_CARD]
    bsuit = best // 13
    if side_of(w, w[BEST_SEAT]) == side_of(w, seat):
        if w[TRICK_LEN] == w[N] - 1:
            tens = legal & RANK_MASK[8] & ~SUIT_MASK[trump]
            if tens:
                return lowest(tens)  # smear a ten onto the partner's trick
        return cheapest(legal, trump)
    above = ~((1 << (best + 1)) - 1)
    higher = legal & SUIT_MASK[bsuit] & above
    if bsuit != trump:
        if higher:
            return lowest(higher)
        higher = legal & SUIT_MASK[trump]
    if higher:
        return lowest(higher)
    return cheapest(legal, trump)


@njit
def choose(w: Arr, legal: int, policy: int, s: int) -> tuple[int, int]:
    """The action of the seat to act under ``policy``: ``(action, new PRNG state)``."""
    if policy >> w[TO_ACT] & 1:
        if legal >> 52:
            return heuristic_bid(w, legal), s
        return heuristic_card(w, legal), s
    return pick_random(legal, s)
