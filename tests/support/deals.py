"""Exact deals for tests: helpers that build and play them out, and the fixed
4-player game that the rules, options and CLI tests share."""

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


# A fixed 4-player deal (dealer 0) whose whole hand is played out below by hand.
D4 = [
    "As Ks 2c 3c 4d 5d",  # seat 0 (dealer)
    "Ah Kh Qh 6c 7c 8d",  # seat 1
    "2h 3h 9c Tc 9d Td",  # seat 2
    "Js 4s Jc Qc Jd Qd",  # seat 3
]
D4_AUCTION = ("bid 2", "pass", "pass", "pass")
D4_TRICKS = (
    ("Ah", "2h", "Js", "2c"),  # 1 leads: trump hearts; 2 must trump; 3, 0 are void
    ("6c", "3h", "Qc", "3c"),  # 2 trumps although it holds clubs; the trump wins
    ("9c", "Jc", "4d", "7c"),  # 0 is void in clubs, discards; Jc wins
    ("Jd", "5d", "8d", "9d"),
    ("4s", "As", "Kh", "Tc"),  # 1 trumps a spade lead
    ("Qh", "Td", "Qd", "Ks"),
)
D4_WINNERS = (1, 2, 3, 3, 1, 1)


def d4(rules: Rules | None = None) -> GameState:
    return dealt(rules or Rules(), D4)


def play_d4(rules: Rules | None = None) -> GameState:
    s = play(d4(rules), *D4_AUCTION)
    for t in D4_TRICKS:
        play(s, *t)
    return s
