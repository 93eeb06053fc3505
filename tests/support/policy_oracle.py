"""The heuristic policy in readable Python: the test oracle of the kernel's port.

The product plays the heuristic through :mod:`pitch.fastcore.policy` (compiled, or
the same source as plain Python). This module is the readable statement of the same
rules that the differential tests (``tests/fastcore/test_policy.py``) hold the kernel
to, decision for decision; it is not imported by the product.

Every function here takes only what one seat may know (its own cards, the cards
played, the bids, the scores), as the kernel's does.

Card values, used to decide what to win, feed, save and throw away:

* Game (R5.4): ten 10, ace 4, king 3, queen 2, jack 1, worth about 1/25 of a point
  per unit (a hand of 4 players puts ~37 game points in play);
* Jack of trump (R5.3): a full point to whoever captures it;
* Low (R5.2): the lowest trump in play, a point to its captor; a trump is "Low"
  with a probability that falls with the number of lower trumps not yet seen;
* High (R5.1) is decided by the deal (the top trump always wins its trick), so play
  never aims at it, but high trumps are kept to win tricks and draw trump.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from pitch.engine.actions import BID_BASE
from pitch.engine.cards import FULL_DECK, GAME_VALUE, JACK, RANK_OF, SUIT_MASK, SUIT_OF
from pitch.engine.state import BID, GameState
from pitch.fastcore import bidmodel

GAME_UNIT: Final = 0.04
"""Points one game-count unit is worth (a ten: 0.4)."""

_POP = int.bit_count


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        b = mask & -mask
        out.append(b.bit_length() - 1)
        mask ^= b
    return out


# ------------------------------------------------------------------ bidding


def p_elsewhere(players: int) -> float:
    """Chance that one card I cannot see was dealt to another seat (R2.3)."""
    return 6 * (players - 1) / 46


def suit_estimate(hand: int, suit: int, players: int, partnerships: bool) -> float:
    """Expected points for my side if I pitch ``suit`` as trump with ``hand``.

    A rough model: High needs every higher trump undealt; Low needs every lower one
    undealt and the card kept safe; the Jack is safe with length or a higher trump;
    Game grows with trump length (tricks won) and the tens held.
    """
    trumps = hand & SUIT_MASK[suit]
    k = _POP(trumps)
    if not k:
        return 0.0
    p = p_elsewhere(players)
    q = 1.0 - p
    hi = RANK_OF[_high(trumps)]
    lo = RANK_OF[_low(trumps)]
    high = q ** (12 - hi)
    low = q**lo * (0.95 if k == 1 else 0.85 if lo > 1 else 0.9)
    jack_card = suit * 13 + JACK
    if trumps >> jack_card & 1:
        jack = 0.92 if hi > JACK or k >= 3 else 0.7
    else:
        jack = p * min(0.6, 0.1 * k + (0.2 if hi > JACK else 0.0))
    tens = 0
    for s in range(4):
        if hand >> (s * 13 + 8) & 1:
            tens += 1
    face = sum(GAME_VALUE[RANK_OF[c]] for c in _cards(hand)) - 10 * tens
    game = 0.12 + 0.09 * k + 0.12 * tens + 0.015 * face
    if players > 2 and not partnerships:
        game -= 0.04 * (players - 2)
    if partnerships:
        # A partner brings captures of Low/Jack/Game of its own.
        game += 0.15
        jack += (1 - jack) * 0.2 if not trumps >> jack_card & 1 else 0.0
        low += (1 - low) * 0.15
    return high + low + jack + max(0.05, min(0.9, game))


def suit_features(hand: int, suit: int, players: int, partnerships: bool) -> list[float]:
    """The learned estimate's inputs (``pitch.fastcore.bidmodel``): the ranks of the
    top and bottom trumps and the number of trumps (each picks one weight), then the
    Jack, the Jack times the trumps, the Jack under a higher trump, the tens, the face
    cards' Game points, the side aces, the second trump's rank (-1: none) and the
    hand-written estimate."""
    trumps = hand & SUIT_MASK[suit]
    cards = _cards(trumps)
    hi = RANK_OF[cards[-1]]
    lo = RANK_OF[cards[0]]
    jack = 1 if trumps >> (suit * 13 + JACK) & 1 else 0
    tens = sum(1 for c in _cards(hand) if RANK_OF[c] == 8)
    face = sum(GAME_VALUE[RANK_OF[c]] for c in _cards(hand)) - 10 * tens
    aces = sum(1 for c in _cards(hand) if RANK_OF[c] == 12 and SUIT_OF[c] != suit)
    second = RANK_OF[cards[-2]] if len(cards) > 1 else -1
    return [
        hi,
        lo,
        len(cards),
        jack,
        jack * len(cards),
        jack if hi > JACK else 0,
        tens,
        face,
        aces,
        second,
        suit_estimate(hand, suit, players, partnerships),
    ]


def learned_estimate(hand: int, suit: int, players: int, partnerships: bool) -> float:
    """The shipped model's points for pitching ``suit`` (which the hand holds)."""
    f = suit_features(hand, suit, players, partnerships)
    w = bidmodel.WEIGHTS
    o = bidmodel.FEATURES * bidmodel.model_index(players, partnerships)
    v = w[o + bidmodel.W_HIGH + int(f[0])]
    v += w[o + bidmodel.W_LOW + int(f[1])]
    v += w[o + bidmodel.W_COUNT + int(f[2])]
    for i, x in enumerate(f[3:]):
        v += w[o + bidmodel.W_DENSE + i] * x
    return v


def best_suit(hand: int, players: int, partnerships: bool) -> tuple[int, float]:
    """The suit to pitch and its learned estimate."""
    best, value = -1, 0.0
    for s in range(4):
        if hand & SUIT_MASK[s]:
            v = learned_estimate(hand, s, players, partnerships)
            if best < 0 or v > value:
                best, value = s, v
    return best, value


def choose_bid(
    *,
    hand: int,
    seat: int,
    dealer: int,
    legal_bids: int,
    high_bid: int,
    high_bidder: int,
    scores: Sequence[int],
    side_of: Sequence[int],
    target: int,
    players: int,
    partnerships: bool,
    must_make: bool,
) -> int:
    """A bid (0 = pass) among ``legal_bids`` (bit ``b`` set when bid ``b`` is legal).

    Bid the highest level the hand's estimate covers with a margin; the margin
    shrinks when an opponent is close to going out (only a pitcher can go out,
    R6.2, so winning the auction denies it) or when pitching would take us out.
    """
    _, est = best_suit(hand, players, partnerships)
    me = side_of[seat]
    margin = -0.2 if len(scores) == 2 else 0.1
    near = target - 2
    opp_near = any(sc >= near for s, sc in enumerate(scores) if s != me)
    if opp_near:
        margin -= 0.35
    if scores[me] + est >= target and not must_make:
        margin -= 0.2
    if partnerships and high_bidder >= 0 and side_of[high_bidder] == me and not opp_near:
        # Don't outbid a partner without a clearly better hand.
        margin += 0.5
    want = 0
    for b in (1, 2, 3, 4):
        if est >= b + margin + (0.35 if b == 4 else 0.0):
            want = b
    pass_ok = bool(legal_bids & 1)
    if want:
        for b in range(want, 0, -1):
            if legal_bids >> b & 1:
                return b
    if pass_ok:
        return 0
    # Forced (R3.5): the lowest legal bid, or more if the hand is worth it.
    return _low(legal_bids)


# ------------------------------------------------------------------ card play


def _beats(card: int, best: int, trump: int) -> bool:
    s = SUIT_OF[card]
    if s == SUIT_OF[best]:
        return card > best
    return s == trump


def card_value(card: int, trump: int, unseen: int, played: int) -> float:
    """Points a card is worth to whichever side captures it (estimated)."""
    v = GAME_VALUE[RANK_OF[card]] * GAME_UNIT
    if trump >= 0 and SUIT_OF[card] == trump:
        if RANK_OF[card] == JACK:
            v += 1.0
        below = SUIT_MASK[trump] & ((1 << card) - 1)
        if not below & played:
            v += 0.55 ** _POP(below & unseen)
    return v


def _keep_value(card: int, trump: int, unseen: int) -> float:
    """What a card is worth in hand for later tricks (high trumps draw and win)."""
    if trump >= 0 and SUIT_OF[card] == trump:
        higher = unseen & SUIT_MASK[trump] & ~((2 << card) - 1)
        return 0.6 if not higher else 0.25 + 0.02 * RANK_OF[card]
    return 0.01 * RANK_OF[card]


def choose_card(
    *,
    hand: int,
    legal: int,
    seat: int,
    n: int,
    side_of: Sequence[int],
    pitcher: int,
    trump: int,
    trick: Sequence[int],
    leader: int,
    played: int,
    players: int,
    partnerships: bool,
) -> int:
    """A card to play, from ``legal``."""
    unseen = FULL_DECK & ~hand & ~played
    if not trick:
        return _lead(
            hand, legal, seat, side_of, pitcher, trump, unseen, played, players, partnerships
        )
    me = side_of[seat]
    best = trick[0]
    best_seat = leader
    s = leader
    for c in trick[1:]:
        s = (s + 1) % n
        if _beats(c, best, trump):
            best, best_seat = c, s
    left = n - 1 - len(trick)
    opp_after = any(side_of[(seat + k) % n] != me for k in range(1, left + 1))
    tmask = SUIT_MASK[trump]
    unseen_trump = unseen & tmask
    trick_value = sum(card_value(c, trump, unseen, played) for c in trick)
    cards = _cards(legal)
    vals = {c: card_value(c, trump, unseen, played) for c in cards}

    def secure(c: int) -> bool:
        if not opp_after:
            return True
        if SUIT_OF[c] == trump:
            return not unseen_trump >> (c + 1)
        higher = unseen & SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1)
        # An off-suit master can still be trumped; trust it only early.
        return not higher and len(trick) + 1 >= n - 1 and not unseen_trump

    if side_of[best_seat] == me and (not opp_after or secure(best)):
        # Partner holds the trick: feed it points, keep trumps that win later.
        return max(cards, key=lambda c: (vals[c] - _keep_value(c, trump, unseen), -c))
    winners = [c for c in cards if _beats(c, best, trump)]
    safe = [c for c in winners if secure(c)]
    if safe:
        gain = {c: trick_value + vals[c] - 0.5 * _keep_value(c, trump, unseen) for c in safe}
        c = max(safe, key=lambda c: (gain[c], -c))
        if gain[c] > 0.05 or SUIT_OF[c] != trump:
            return c
    if winners and opp_after and side_of[best_seat] != me:
        # Not safe but worth a try with a master of the suit led (no trump spent).
        masters = [
            c
            for c in winners
            if SUIT_OF[c] != trump and not unseen & SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1)
        ]
        if masters and trick_value > 0.1:
            return max(masters)
    # Lose cheaply: give away the least, keep what wins later.
    return min(cards, key=lambda c: (vals[c] + _keep_value(c, trump, unseen), c))


def _lead(
    hand: int,
    legal: int,
    seat: int,
    side_of: Sequence[int],
    pitcher: int,
    trump: int,
    unseen: int,
    played: int,
    players: int,
    partnerships: bool,
) -> int:
    if trump < 0:
        # R4.1: the pitch sets trump. Lead the top of the best suit.
        suit, _ = best_suit(hand, players, partnerships)
        return _high(hand & SUIT_MASK[suit])
    tmask = SUIT_MASK[trump]
    mine = hand & tmask
    unseen_trump = unseen & tmask
    if mine and unseen_trump:
        top = _high(mine)
        if top > _high(unseen_trump):
            # A master trump draws the rest and captures what falls.
            return top
    offs = legal & ~tmask
    if offs:
        cards = _cards(offs)
        # An ace that is master of its suit collects that suit's counters.
        aces = [
            c
            for c in cards
            if not unseen & SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1)
            and unseen & SUIT_MASK[SUIT_OF[c]]
            and side_of[seat] == side_of[pitcher]
        ]
        if aces:
            return max(aces)
        return min(cards, key=lambda c: (GAME_VALUE[RANK_OF[c]], c))
    cards = _cards(legal)
    return min(cards, key=lambda c: (card_value(c, trump, unseen, played), c))


# ------------------------------------------------------------------ on a state


def state_action(state: GameState) -> int:
    """The heuristic's action for the seat to act in ``state``, reading only that
    seat's cards and public information."""
    seat = state.to_act
    rules = state.rules
    if state.phase == BID:
        return BID_BASE + choose_bid(
            hand=state.hands[seat],
            seat=seat,
            dealer=state.dealer,
            legal_bids=state.legal_mask() >> BID_BASE,
            high_bid=state.high_bid,
            high_bidder=state.high_bidder,
            scores=state.scores,
            side_of=state.side_of,
            target=rules.target,
            players=state.n,
            partnerships=rules.partnerships,
            must_make=rules.must_make_bid_to_win,
        )
    return choose_card(
        hand=state.hands[seat],
        legal=state.legal_mask(),
        seat=seat,
        n=state.n,
        side_of=state.side_of,
        pitcher=state.pitcher,
        trump=state.trump,
        trick=state.trick,
        leader=state.leader,
        played=state.played_mask(),
        players=state.n,
        partnerships=rules.partnerships,
    )


def hand_outcome(state: GameState) -> tuple[tuple[int, ...], int]:
    """Score change per side and pitcher of the last hand in ``state.history``."""
    res = state.history[-1].result
    if res is None:  # thrown in (house rule)
        return (0,) * state.num_sides, -1
    return res.delta, res.pitcher


def heuristic_rollout(state: GameState, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Finish the hand in progress of ``state`` (not modified) with :func:`state_action`
    for every seat: the score change per side and the pitcher (-1: thrown in)."""
    s = state.copy()
    before = len(s.history)
    while len(s.history) == before:
        s.apply_unchecked(state_action(s))
    return hand_outcome(s)
