"""Small helpers for building exact deals and playing them out in tests."""

from __future__ import annotations

from collections.abc import Sequence

from pitch.engine import DEAL, OVER, GameState, Rules, parse_action, parse_card


def cards(text: str) -> int:
    """``"As Ks 2h"`` -> card mask."""
    m = 0
    for t in text.split():
        m |= 1 << parse_card(t)
    return m


def words(*texts: str) -> list[str]:
    """``words("As Ks", "2h")`` -> ``["As", "Ks", "2h"]`` (one string per trick reads well)."""
    return [w for t in texts for w in t.split()]


def dealt(rules: Rules, hands: Sequence[str], dealer: int = 0) -> GameState:
    """A state with the given hands dealt (one string of six cards per seat)."""
    state = GameState(rules, dealer=dealer)
    state.deal([cards(h) for h in hands])
    return state


def play(state: GameState, *actions: str) -> GameState:
    """Apply actions given as text (``"pass"``, ``"bid 2"``, ``"As"``), checked."""
    for a in actions:
        state.apply(parse_action(a))
    return state


def finish_hand(state: GameState) -> GameState:
    """Play the rest of the hand with the lowest legal card each time (deterministic)."""
    hands = len(state.history)
    while state.phase not in (DEAL, OVER) and len(state.history) == hands:
        mask = state.legal_mask()
        state.apply((mask & -mask).bit_length() - 1)
    return state


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything that can change in a state, for exact before/after comparisons."""
    return (state._snapshot(), len(state._stack), repr(state))
