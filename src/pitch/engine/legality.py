"""Why an action is illegal: the rule it breaks, in words (the slow, friendly path)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pitch.engine.actions import BID_BASE, NUM_ACTIONS, PASS, action_str
from pitch.engine.cards import NUM_CARDS, SUIT_MASK, SUIT_NAMES, SUIT_OF
from pitch.engine.errors import IllegalActionError

if TYPE_CHECKING:
    from pitch.engine.state import GameState


def explain_illegal(state: GameState, action: object) -> IllegalActionError | None:
    """``None`` if ``action`` is legal in ``state``, else the error to raise."""
    from pitch.engine.state import BID, DEAL, OVER, PLAY

    mask = state.legal_mask()
    legal = [action_str(a) for a in state.legal_actions()]
    # Nobody is "to act" while dealing (the chance player) or after the game.
    seat: int | None = None if state.phase in (DEAL, OVER) else state.to_act
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return IllegalActionError(
            "R3.2" if state.phase == BID else "R4.2",
            seat,
            f"take action {action!r}",
            f"actions are ids 0..{NUM_ACTIONS - 1}",
            legal,
        )
    if mask >> action & 1:
        return None
    text = action_str(action)
    phase = state.phase
    if phase == OVER:
        return IllegalActionError("R6.2", seat, text, "the game is over", [])
    if phase == DEAL:
        if action >= NUM_CARDS:
            return IllegalActionError(
                "R2.2", None, text, "the cards must be dealt before the auction", legal
            )
        return IllegalActionError("R2.1", None, f"deal {text}", "that card is already dealt", legal)
    if phase == BID:
        return _explain_bid(state, action, text, legal)
    assert phase == PLAY
    verb = f"play {text}" if action < NUM_CARDS else text
    if action >= NUM_CARDS:
        return IllegalActionError(
            "R4.2", seat, verb, "the auction is over; each player now plays a card", legal
        )
    hand = state.hands[state.to_act]
    if not hand >> action & 1:
        return IllegalActionError("R4.2", seat, verb, "that card is not in the hand", legal)
    led = state.lead_suit
    if led == state.trump:
        reason = f"trump ({SUIT_NAMES[led]}) was led and the hand holds trump"
    else:
        reason = (
            f"{SUIT_NAMES[led]} were led and the hand holds {SUIT_NAMES[led]}: "
            f"follow suit or play a trump ({SUIT_NAMES[state.trump]})"
        )
    assert hand & SUIT_MASK[led] and SUIT_OF[action] not in (led, state.trump)
    return IllegalActionError("R4.3", seat, verb, reason, legal)


def _explain_bid(state: GameState, action: int, text: str, legal: list[str]) -> IllegalActionError:
    seat = state.to_act
    if action < NUM_CARDS:
        return IllegalActionError(
            "R3.1", seat, f"play {text}", "the auction is not over: bid or pass first", legal
        )
    bid = action - BID_BASE
    high = state.high_bid
    rules = state.rules
    is_dealer = seat == state.dealer
    if is_dealer and high == 0 and rules.all_pass == "dealer_bids":
        if action == PASS:
            return IllegalActionError(
                "R3.5", seat, text, "everyone else passed, so the dealer must bid", legal
            )
        return IllegalActionError(
            "R3.5", seat, text, "everyone else passed, so the dealer must bid at least 2", legal
        )
    if bid < rules.min_bid:
        return IllegalActionError(
            "R3.2", seat, text, f"this table's lowest bid is {rules.min_bid} (house option)", legal
        )
    if is_dealer and bid == high and not rules.dealer_may_steal:
        return IllegalActionError(
            "R3.6",
            seat,
            text,
            "this table does not let the dealer steal the bid (house option); bid higher or pass",
            legal,
        )
    return IllegalActionError(
        "R3.3", seat, text, f"a bid must be higher than the current high bid of {high}", legal
    )
