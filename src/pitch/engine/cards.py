"""Cards as ints, sets of cards as 52-bit int masks (R2.1).

A card is ``suit * 13 + rank`` with rank 0..12 for 2..A and suit 0..3 for
clubs, diamonds, hearts, spades. Within a suit a higher id is a higher card,
so comparing two cards of one suit is comparing two ints. Hot code uses the raw
ints and masks; :class:`CardSet` is the friendly, hashable value for users.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from pitch.engine.errors import CardParseError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = ("\u2663", "\u2666", "\u2665", "\u2660")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

TEN: Final = 8
JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12

NUM_CARDS: Final = 52
FULL_DECK: Final = (1 << NUM_CARDS) - 1

SUIT_OF: Final = tuple(c // 13 for c in range(NUM_CARDS))
RANK_OF: Final = tuple(c % 13 for c in range(NUM_CARDS))
SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
BIT: Final = tuple(1 << c for c in range(NUM_CARDS))

# R5.4: game-point value of each rank (ten 10, ace 4, king 3, queen 2, jack 1).
GAME_VALUE: Final = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
_TENS: Final = RANK_MASK[TEN]
_JACKS: Final = RANK_MASK[JACK]
_QUEENS: Final = RANK_MASK[QUEEN]
_KINGS: Final = RANK_MASK[KING]
_ACES: Final = RANK_MASK[ACE]

_CARD_TEXT: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(NUM_CARDS))


def make_card(rank: int, suit: int) -> int:
    """The card id of ``rank`` (0 = two .. 12 = ace) in ``suit`` (0..3)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardParseError(f"no card with rank index {rank} and suit index {suit}")
    return suit * 13 + rank


def card_str(card: int) -> str:
    """Canonical text of a card: rank then suit, e.g. ``As``, ``Td``, ``2c``."""
    return _CARD_TEXT[card]


def parse_card(text: str) -> int:
    """Parse ``As``, ``Td``, ``10d``, ``TD``, ``qH`` (rank and suit in any case)."""
    if not isinstance(text, str):
        raise CardParseError(f"a card must be text like 'As', not {text!r}")
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise CardParseError(
            f"unknown card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) "
            "and a suit (c, d, h, s), as in 'As' or '10d'"
        )
    r = RANKS.find(t[0].upper())
    s = SUITS.find(t[1].lower())
    if r < 0 or s < 0:
        raise CardParseError(
            f"unknown card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) "
            "and a suit (c, d, h, s), as in 'As' or '10d'"
        )
    return s * 13 + r


def iter_cards(mask: int) -> Iterator[int]:
    """The card ids in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    """The card ids in ``mask`` as a list, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def game_points(mask: int) -> int:
    """R5.4: the game-point count of the cards in ``mask``."""
    return (
        10 * (mask & _TENS).bit_count()
        + 4 * (mask & _ACES).bit_count()
        + 3 * (mask & _KINGS).bit_count()
        + 2 * (mask & _QUEENS).bit_count()
        + (mask & _JACKS).bit_count()
    )


def highest(mask: int) -> int:
    """The highest card id in a non-empty mask (within one suit: the best card)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest card id in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def format_cards(mask: int) -> str:
    """Cards sorted by suit (spades, hearts, diamonds, clubs), high to low."""
    parts = []
    for s in (SPADES, HEARTS, DIAMONDS, CLUBS):
        for c in reversed(cards_of(mask & SUIT_MASK[s])):
            parts.append(_CARD_TEXT[c])
    return " ".join(parts)


class CardSet:
    """An immutable set of cards backed by a 52-bit int mask.

    >>> hand = CardSet.parse("As Kd 10h")
    >>> "As" in hand, len(hand), str(hand)
    (True, 3, 'Kd Th As')
    >>> CardSet.parse(str(hand)) == hand
    True
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | str | Iterable[int | str] = 0) -> None:
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK:
                raise CardParseError(f"card mask out of range: {cards}")
            m = cards
        else:
            m = 0
            for c in cards:
                m |= 1 << (parse_card(c) if isinstance(c, str) else _check_id(c))
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse whitespace- or comma-separated card texts."""
        return cls(text)

    def __iter__(self) -> Iterator[int]:
        return iter_cards(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            return bool(self.mask >> parse_card(card) & 1)
        if isinstance(card, int):
            return 0 <= card < NUM_CARDS and bool(self.mask >> card & 1)
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASK[suit])

    def texts(self) -> list[str]:
        return [_CARD_TEXT[c] for c in iter_cards(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.texts())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})" if self.mask else "CardSet()"


def _check_id(card: int) -> int:
    if not 0 <= card < NUM_CARDS:
        raise CardParseError(f"card id out of range 0..51: {card}")
    return card
