"""One fixed integer action space: cards first, then bids (as in OpenSpiel).

====== =================================
id     meaning
====== =================================
0..51  play (or deal, at a chance node) that card
52     pass
53..56 bid 1, 2, 3, 4
====== =================================

>>> action_str(parse_action("bid 3")), action_str(parse_action("10h"))
('bid 3', 'Th')
"""

from __future__ import annotations

from typing import Final

from pitch.engine.cards import NUM_CARDS, card_str, parse_card
from pitch.engine.errors import ActionParseError, CardParseError

PASS: Final = 52
BID_BASE: Final = 52  # bid b (1..4) is BID_BASE + b; pass (bid 0) is BID_BASE
NUM_ACTIONS: Final = 57
MAX_BID: Final = 4


def bid_action(bid: int) -> int:
    """The action id of bid ``bid`` (0 = pass, 1..4)."""
    if not 0 <= bid <= MAX_BID:
        raise ActionParseError(f"a bid is 0 (pass) or 1 to 4, not {bid}")
    return BID_BASE + bid


def is_bid(action: int) -> bool:
    return BID_BASE <= action < NUM_ACTIONS


def is_card(action: int) -> bool:
    return 0 <= action < NUM_CARDS


def bid_value(action: int) -> int:
    """The bid of a bid action: 0 for pass, else 1..4."""
    return action - BID_BASE


_TEXT: Final = tuple(
    [card_str(c) for c in range(NUM_CARDS)] + ["pass"] + [f"bid {b}" for b in range(1, 5)]
)


def action_str(action: int) -> str:
    """Canonical text: ``As``, ``pass``, ``bid 3``."""
    if not 0 <= action < NUM_ACTIONS:
        raise ActionParseError(f"action id out of range 0..{NUM_ACTIONS - 1}: {action}")
    return _TEXT[action]


def parse_action(text: str) -> int:
    """Parse ``As``/``10h`` (a card), ``pass``, ``bid 3`` (also ``bid3``, ``3``)."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {text!r}")
    t = " ".join(text.strip().lower().split())
    if t in ("pass", "p", "bid 0", "0"):
        return PASS
    if t.startswith("bid"):
        t = t[3:].strip()
    if len(t) == 1 and t.isdigit():
        b = int(t)
        if 1 <= b <= MAX_BID:
            return BID_BASE + b
        raise ActionParseError(f"unknown action {text!r}: a bid is 'pass' or 'bid 1' to 'bid 4'")
    try:
        return parse_card(t)
    except CardParseError:
        raise ActionParseError(
            f"unknown action {text!r}: expected a card ('As', '10h'), 'pass' or 'bid 1'..'bid 4'"
        ) from None
