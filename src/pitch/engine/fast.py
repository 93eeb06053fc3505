"""The search fast path: whole random playouts on local ints.

Search bots spend their time finishing hands at random from some position.
:func:`random_playout` does that without building per-action objects: the
state's fields are read into locals once, the rest of the hand runs on ints and
masks, and the hand is scored with the engine's own :func:`score_hand`. It
follows exactly the rules of :class:`GameState` (R3, R4.3-R4.6) and is tested
against it action for action.
"""

from __future__ import annotations

import random

from pitch.engine.actions import BID_BASE
from pitch.engine.cards import SUIT_MASK, SUIT_OF
from pitch.engine.scoring import score_hand
from pitch.engine.state import BID, PLAY, GameState


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
    """
    if state.phase == BID:
        state = state.copy()
        while state.phase == BID:
            state.apply_unchecked(BID_BASE + random_bid_value(state, rng))
        if state.phase != PLAY:
            return (0,) * state.num_sides
    elif state.phase != PLAY:
        raise ValueError("random_playout needs a state in the auction or the play")
    rand = rng.random
    n = state.n
    nxt = state._next
    side_of = state.side_of
    hands = state.hands[:]
    captured = state.captured[:]
    trump = state.trump
    seat = state.to_act
    trick = list(state.trick)
    lead = state.lead_suit
    best = state.best_card
    best_seat = state.best_seat
    tmask = state.trick_mask if trick else 0
    tricks_left = 6 - len(state.tricks)
    while tricks_left:
        hand = hands[seat]
        if not trick:
            legal = hand
        else:
            legal = hand & SUIT_MASK[lead]
            if legal:
                legal |= hand & SUIT_MASK[trump]  # R4.3
            else:
                legal = hand  # R4.4
        k = int(rand() * legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        bit = legal & -legal
        card = bit.bit_length() - 1
        hands[seat] = hand ^ bit
        suit = SUIT_OF[card]
        if not trick:
            if trump < 0:
                trump = suit  # R4.1
            lead = suit
            best = card
            best_seat = seat
            tmask = bit
        else:
            bsuit = SUIT_OF[best]
            if suit == bsuit:
                if card > best:
                    best = card
                    best_seat = seat
            elif suit == trump:
                best = card
                best_seat = seat
            tmask |= bit
        trick.append(card)
        if len(trick) == n:
            captured[side_of[best_seat]] |= tmask  # R4.5
            trick = []
            seat = best_seat  # R4.6
            tricks_left -= 1
        else:
            seat = nxt[seat]
    result = score_hand(
        num_sides=state.num_sides,
        side_of=side_of,
        trump=trump,
        dealt=state.dealt,
        captured=captured,
        pitcher=state.pitcher,
        bid=state.contract,
        low_to_holder=state._low_holder,
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
