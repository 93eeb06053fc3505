"""What is legal and, when it is not, why: the rule an action breaks, as a
:class:`~pitch.engine.refusals.Refusal` (the slow, friendly path).

:func:`refusal` works from what a player sees (a :class:`PlayerView`), so a server
can explain every card and bid of a seat without the hidden state;
``GameState.verify`` uses it too, through the view of the seat to act.
"""

from __future__ import annotations

from typing import Final

from pitch.engine import refusals as k
from pitch.engine.actions import BID_BASE, NUM_ACTIONS, PASS
from pitch.engine.base import BID, DEAL, OVER, PLAY
from pitch.engine.cards import NUM_CARDS, SUIT_MASK, SUIT_NAMES, SUIT_OF, card_str
from pitch.engine.refusals import Refusal
from pitch.engine.rules import Rules
from pitch.engine.views import PlayerView

_PASS_BIT: Final = 1 << PASS
# _BIDS_FROM[lo]: the bid actions lo..4 as a mask (lo may be 5: none).
_BIDS_FROM: Final = tuple(sum(1 << (BID_BASE + b) for b in range(lo, 5)) for lo in range(0, 6))


def bid_mask(rules: Rules, is_dealer: bool, high: int) -> int:
    """R3.2-R3.6 with the house options: the legal bid actions (pass included) of a
    seat, as a mask over action ids, given the high bid so far (0: none)."""
    lo = high + 1 if high + 1 > rules.min_bid else rules.min_bid
    if is_dealer:
        if high == 0:
            if rules.all_pass == "dealer_bids":
                # R3.5: the dealer may not pass and must bid at least 2.
                return _BIDS_FROM[lo if lo > 2 else 2]
        elif rules.dealer_may_steal:
            lo = high  # R3.6: the dealer may steal by equalling the high bid.
    return _PASS_BIT | _BIDS_FROM[lo]


def refusal(view: PlayerView, action: object) -> Refusal | None:
    """``None`` if ``view``'s seat may take ``action`` now, else why not."""
    phase = view.phase
    if phase == OVER:
        return Refusal("R6.2", k.GAME_OVER)
    if phase == DEAL:
        return Refusal("R2.2", k.DEAL_FIRST)
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        rule = "R3.2" if phase == BID else "R4.2"
        return Refusal(rule, k.NOT_AN_ACTION, {"last": NUM_ACTIONS - 1})
    if view.current_player != view.seat:
        # Bidding and play both go clockwise, one seat at a time.
        return Refusal("R3.1" if phase == BID else "R4.2", k.NOT_YOUR_TURN)
    if phase == BID:
        return _bid_refusal(view, action)
    assert phase == PLAY
    return _play_refusal(view, action)


def english(why: Refusal) -> str:
    """The refusal's key filled in English: the reason an ``IllegalActionError`` gives."""
    return why.text(str, SUIT_NAMES.__getitem__, card_str)


def deal_refusal(dealt: int, action: object) -> Refusal | None:
    """While dealing: ``None`` if ``action`` deals a card not yet dealt (``dealt``, a mask)."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return Refusal("R2.2", k.NOT_AN_ACTION, {"last": NUM_ACTIONS - 1})
    if action >= NUM_CARDS:
        return Refusal("R2.2", k.DEAL_FIRST)
    if dealt >> action & 1:
        return Refusal("R2.1", k.ALREADY_DEALT)
    return None


def _bid_refusal(view: PlayerView, action: int) -> Refusal | None:
    if action < NUM_CARDS:
        return Refusal("R3.1", k.AUCTION_NOT_OVER)
    rules = view.rules
    high = view.high_bid
    is_dealer = view.seat == view.dealer
    if bid_mask(rules, is_dealer, high) >> action & 1:
        return None
    bid = action - BID_BASE
    if is_dealer and high == 0 and rules.all_pass == "dealer_bids":
        return Refusal("R3.5", k.DEALER_MUST_BID)
    if bid < rules.min_bid:
        return Refusal("R3.2", k.LOWEST_BID, {"min_bid": rules.min_bid})
    if is_dealer and bid == high and not rules.dealer_may_steal:
        return Refusal("R3.6", k.NO_STEAL, {"high": high})
    if is_dealer and rules.dealer_may_steal:
        # "Bid more than 2" would deny the steal the dealer's buttons offer (R3.6).
        return Refusal("R3.6", k.STEAL_OR_HIGHER, {"high": high})
    return Refusal("R3.3", k.BID_HIGHER, {"high": high})


def _play_refusal(view: PlayerView, action: int) -> Refusal | None:
    if action >= NUM_CARDS:
        return Refusal("R4.2", k.AUCTION_OVER)
    hand = view.hand
    if not hand >> action & 1:
        return Refusal("R4.2", k.NOT_IN_HAND, {"card": action})
    if not view.trick:
        return None  # any card may lead (R4.1, R4.6)
    led = SUIT_OF[view.trick[0]]
    suit = SUIT_OF[action]
    trump = view.trump
    if suit in (led, trump) or not hand & SUIT_MASK[led]:
        return None  # R4.3, R4.4
    if led == trump:
        return Refusal("R4.3", k.TRUMP_LED, {"suit": led})
    return Refusal("R4.3", k.FOLLOW_SUIT, {"suit": led, "trump": trump})
