"""Cards on screen: suit symbols (or plain letters where the terminal lacks them),
red and black suits, hands sorted by suit."""

from __future__ import annotations

from rich.text import Text

from pitch.engine import SUIT_MASK, SUIT_SYMBOLS, SUITS, cards_of

RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# Spades, hearts, clubs, diamonds: black and red alternate along the hand.
SUIT_ORDER = (3, 2, 0, 1)
RED = (False, True, True, False)


def can_show_symbols(encoding: str | None) -> bool:
    """Whether text in ``encoding`` can carry the suit symbols and box lines."""
    try:
        ("".join(SUIT_SYMBOLS) + "╭─│").encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def suit_mark(suit: int, symbols: bool) -> str:
    return SUIT_SYMBOLS[suit] if symbols else SUITS[suit]


def card_label(card: int, symbols: bool) -> str:
    """``10♥`` (or ``10h``)."""
    return RANK_TEXT[card % 13] + suit_mark(card // 13, symbols)


def card_text(card: int, symbols: bool, *, style: str = "") -> Text:
    suit = card // 13
    colour = "bold red" if RED[suit] else "bold"
    return Text(card_label(card, symbols), style=f"{colour} {style}".strip())


def suit_text(suit: int, symbols: bool) -> Text:
    return Text(suit_mark(suit, symbols), style="bold red" if RED[suit] else "bold")


def sorted_hand(mask: int, trump: int = -1) -> list[int]:
    """Cards by suit (trump first once it is known), high to low within a suit."""
    order = list(SUIT_ORDER)
    if trump >= 0:
        order.remove(trump)
        order.insert(0, trump)
    out: list[int] = []
    for s in order:
        out.extend(reversed(cards_of(mask & SUIT_MASK[s])))
    return out


def symbols_to_letters(text: str) -> str:
    """Let a player type ``A♥`` as well as ``Ah``."""
    for sym, letter in zip(SUIT_SYMBOLS, SUITS, strict=True):
        text = text.replace(sym, letter)
    for sym, letter in zip("♧♢♡♤", SUITS, strict=True):
        text = text.replace(sym, letter)
    return text
