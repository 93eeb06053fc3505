"""What the state machine, its views and its legality checks share: phases, seats
that are not seats, finished tricks and hands, the legal-action view.

The bottom of the engine's layers (``state`` > ``legality`` > ``views`` > ``base``,
kept so by import-linter): nothing here imports another module of the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, NamedTuple

from pitch.engine.actions import BID_BASE, MAX_BID, NUM_ACTIONS, action_str
from pitch.engine.scoring import HandResult

CHANCE: Final = -1
TERMINAL: Final = -4

# Phases, as plain ints for speed.
DEAL: Final = 0
BID: Final = 1
PLAY: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("deal", "bid", "play", "over")

HAND_SIZE: Final = 6
TRICKS_PER_HAND: Final = 6


class Trick(NamedTuple):
    """A finished trick: ``cards`` in the order played, from ``leader``."""

    leader: int
    cards: tuple[int, ...]
    winner: int


class HandRecord(NamedTuple):
    """One finished (or thrown-in) hand, as the record stores it."""

    dealer: int
    deal: tuple[int, ...]
    """The mask dealt to each seat."""
    bids: tuple[tuple[int, int], ...]
    """``(seat, bid)`` in bidding order; 0 is a pass."""
    pitcher: int | None
    """``None`` when everyone passed and the hand was thrown in (house rule)."""
    bid: int | None
    trump: int | None
    tricks: tuple[Trick, ...]
    result: HandResult | None
    scores: tuple[int, ...]
    """Running score of each side after this hand."""


_PITCH: Final = BID_BASE + MAX_BID


class LegalActions:
    """A cheap, lazy view of legal action ids: membership, iteration, length."""

    __slots__ = ("mask",)

    def __init__(self, mask: int) -> None:
        self.mask = mask

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, int) and 0 <= action < NUM_ACTIONS and bool(self.mask >> action & 1)
        )

    def __iter__(self) -> Iterator[int]:
        m = self.mask
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def count(self) -> int:
        return self.mask.bit_count()

    def texts(self) -> list[str]:
        return [action_str(a) for a in self]

    def pitch(self) -> int | None:
        """The bid that lets its bidder pitch (R3.4: a bid of 4 ends the auction, and
        its bidder may lay the first card at once), if it is legal now; else None."""
        return _PITCH if self.mask >> _PITCH & 1 else None

    def __repr__(self) -> str:
        return f"<LegalActions: {', '.join(self.texts())}>"
