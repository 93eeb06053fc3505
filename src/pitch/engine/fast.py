"""The search fast path: whole random playouts on local ints.

Search bots spend their time finishing hands at random from some position.
:func:`random_playout` does that without building per-action objects: the
state's fields are read into locals once, the rest of the hand runs on ints and
masks, and the hand is scored by the engine's own scoring (:mod:`scoring`). It
follows exactly the rules of :class:`GameState` (R3, R4.3-R4.6) and is tested
against it action for action.
"""

from __future__ import annotations

import random
from typing import Final

from pitch.engine.actions import BID_BASE
from pitch.engine.cards import BIT, SUIT_MASK, SUIT_OF
from pitch.engine.scoring import score_positional
from pitch.engine.state import BID, PLAY, GameState, bid_mask

# _ROTATIONS[n][leader]: the seats of a trick in playing order (R4.2).
_ROTATIONS: Final = {
    n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in range(2, 8)
}


def random_bid_value(state: GameState, rng: random.Random) -> int:
    """A uniformly random legal bid (0 = pass) for the seat to act."""
    mask = state.legal_mask() >> BID_BASE
    k = int(rng.random() * mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_playout(state: GameState, rng: random.Random) -> tuple[int, ...]:
    """Finish the current hand of ``state`` with uniformly random legal actions and
    return the score change of each side (R5.6/R5.7). ``state`` is not modified.

    Must be called in the auction or the play (not at a chance node or game end).
    Returns zeros for a hand thrown in because everyone passed (house rule).
    The random choices are those of :func:`random_bid_value` and of picking the
    k-th lowest legal card with ``k = int(rng.random() * count)``.
    """
    rand = rng.random
    nxt = state._next
    if state.phase == BID:
        # The rest of the auction on locals (R3.1-R3.7), with the state's own bid masks.
        rules = state.rules
        dealer = state.dealer
        seat = state.to_act
        high = state.high_bid
        high_bidder = state.high_bidder
        while True:
            mask = bid_mask(rules, seat == dealer, high) >> BID_BASE
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            bid = (mask & -mask).bit_length() - 1
            if bid and (bid > high or seat == dealer):  # R3.3, R3.6
                high = bid
                high_bidder = seat
            if bid == 4 or seat == dealer:  # R3.4, R3.1
                break
            seat = nxt[seat]
        if high == 0:
            return (0,) * state.num_sides  # everyone passed: thrown in (house rule)
        pitcher = leader = high_bidder  # R3.7, R4.1
        contract = high
        trump_mask = 0
        trump = -1
        in_trick = 0
        lead_mask = best = best_mask = best_seat = tmask = 0
        tricks_left = 6
    elif state.phase == PLAY:
        pitcher = state.pitcher
        contract = state.contract
        leader = state.leader
        trump = state.trump
        trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        in_trick = len(state.trick)
        if in_trick:
            lead_mask = SUIT_MASK[state.lead_suit]
            best = BIT[state.best_card]
            best_mask = SUIT_MASK[SUIT_OF[state.best_card]]
            best_seat = state.best_seat
            tmask = state.trick_mask
        else:
            lead_mask = best = best_mask = best_seat = tmask = 0
        tricks_left = 6 - len(state.tricks)
    else:
        raise ValueError("random_playout needs a state in the auction or the play")
    n = state.n
    side_of = state.side_of
    hands = state.hands[:]
    captured = state.captured[:]
    rotation = _ROTATIONS[n]
    # The play on single-bit masks: within a suit a higher card is a higher bit, so
    # comparing bits compares cards, and a card's suit is tested with a suit mask;
    # only a lead needs the card's id (to find its suit). One pass of the outer loop
    # is one trick; the inner loop runs over the seats after the leader.
    while tricks_left:
        if not in_trick:
            hand = hands[leader]
            k = int(rand() * hand.bit_count())  # any card may be led
            legal = hand
            while k:
                legal &= legal - 1
                k -= 1
            bit = legal & -legal
            hands[leader] = hand ^ bit
            suit = SUIT_OF[bit.bit_length() - 1]
            lead_mask = best_mask = SUIT_MASK[suit]
            if trump < 0:
                trump = suit  # R4.1
                trump_mask = lead_mask
            best = tmask = bit
            best_seat = leader
            in_trick = 1
        for seat in rotation[leader][in_trick:]:
            hand = hands[seat]
            legal = hand & lead_mask
            if legal:
                legal |= hand & trump_mask  # R4.3
            else:
                legal = hand  # R4.4
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            bit = legal & -legal
            hands[seat] = hand ^ bit
            # R4.5: higher of the best card's suit, or the first trump on a non-trump.
            if bit & best_mask:
                if bit > best:
                    best = bit
                    best_seat = seat
            elif bit & trump_mask:
                best = bit
                best_mask = trump_mask
                best_seat = seat
            tmask |= bit
        captured[side_of[best_seat]] |= tmask
        leader = best_seat  # R4.6
        in_trick = 0
        tricks_left -= 1
    result = score_positional(
        state.num_sides,
        side_of,
        trump,
        state.dealt,
        captured,
        pitcher,
        contract,
        state._low_holder,
    )
    return result.delta


def random_hands(state: GameState, rng: random.Random, hands: int) -> int:
    """Benchmark helper: deal and play ``hands`` random hands from fresh deals of
    ``state``'s table; returns the number of points scored (to defeat dead-code
    elimination in the reader's mind, not Python's)."""
    total = 0
    for _ in range(hands):
        s = GameState(state.rules, dealer=state.dealer)
        s.deal_random(rng)
        total += sum(random_playout(s, rng))
    return total
