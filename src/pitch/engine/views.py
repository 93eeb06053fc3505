"""Per-seat views: a seat's own cards plus public information, nothing else.

Bots receive a :class:`PlayerView`, never a :class:`GameState`. Everything in it
is either the seat's own hand or something every player at the table saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitch.engine.base import HandRecord, LegalActions, Trick
from pitch.engine.cards import BIT, SUIT_OF
from pitch.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows at one moment."""

    rules: Rules
    seat: int
    phase: int
    current_player: int
    dealer: int
    scores: tuple[int, ...]
    hand: int
    """This seat's cards now (a mask)."""
    dealt: int
    """This seat's cards as dealt this hand."""
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]
    high_bid: int
    high_bidder: int
    pitcher: int
    """-1 during the auction."""
    contract: int
    trump: int
    """-1 until the pitcher leads."""
    leader: int
    trick: tuple[int, ...]
    """Cards of the trick in progress, in order from ``leader``."""
    holder: int
    """The seat whose card wins the trick in progress so far (R4.5), -1 between tricks."""
    tricks: tuple[Trick, ...]
    """Finished tricks of this hand."""
    played: int
    """Every card played this hand (mask)."""
    played_by: tuple[int, ...]
    """Cards each seat played this hand (masks)."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit mask of suits it has shown it holds no more of (R4.3/R4.4)."""
    legal: int
    """Legal action mask when this seat is to act, else 0."""
    history: tuple[HandRecord, ...]
    """Finished hands. Played hands are public (every card was shown); a thrown-in
    hand keeps only this seat's own cards."""
    winner: int | None

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat

    def legal_actions(self) -> LegalActions:
        return LegalActions(self.legal)

    def takes_lead(self, card: int) -> bool:
        """Would ``card``, played now, win the trick in progress so far (R4.5: a trump
        beats any non-trump, otherwise the higher card of the suit led)? True for a
        lead."""
        if not self.trick:
            return True
        best = self.trick[(self.holder - self.leader) % self.rules.players]
        if SUIT_OF[card] == SUIT_OF[best]:
            return card > best
        return SUIT_OF[card] == self.trump

    @property
    def last_trick(self) -> Trick | None:
        """The last finished trick: of this hand, or between hands the last trick of the
        hand just played (its winner as the engine decided it, R4.5)."""
        if self.tricks:
            return self.tricks[-1]
        for h in reversed(self.history):
            if h.tricks:
                return h.tricks[-1]
        return None

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen this hand: others' hands and the undealt cards."""
        return ((1 << 52) - 1) & ~self.hand & ~self.played


def seen_cards(
    tricks: tuple[Trick, ...], leader: int, trick: tuple[int, ...], n: int, trump: int
) -> tuple[list[int], list[int]]:
    """Per seat, the cards it played this hand (masks) and the suits it has shown it
    is void in (4-bit masks), from the finished tricks and the trick in progress."""
    played_by = [0] * n
    voids = [0] * n
    for t in tricks:
        _scan(t.leader, t.cards, n, trump, played_by, voids)
    if trick:
        _scan(leader, trick, n, trump, played_by, voids)
    return played_by, voids


def _scan(
    leader: int, cards: tuple[int, ...], n: int, trump: int, played_by: list[int], voids: list[int]
) -> None:
    led = SUIT_OF[cards[0]]
    seat = leader
    for c in cards:
        played_by[seat] |= BIT[c]
        s = SUIT_OF[c]
        # A card neither of the suit led nor trump proves a void in the suit led
        # (R4.3); trump led and not followed proves no trump left. Playing trump
        # on a non-trump lead proves nothing: trump may always be played.
        if s != led and s != trump:
            voids[seat] |= 1 << led
        seat = (seat + 1) % n


def public_history(history: tuple[HandRecord, ...], seat: int) -> tuple[HandRecord, ...]:
    """The finished hands as ``seat`` may see them: a thrown-in hand's cards were never
    shown, so only the seat's own stay."""
    if all(h.pitcher is not None for h in history):
        return history
    return tuple(_public(h, seat) for h in history)


def _public(h: HandRecord, seat: int) -> HandRecord:
    if h.pitcher is not None:
        return h
    own = tuple(m if i == seat else 0 for i, m in enumerate(h.deal))
    return HandRecord(
        dealer=h.dealer,
        deal=own,
        bids=h.bids,
        pitcher=None,
        bid=None,
        trump=None,
        tricks=(),
        result=None,
        scores=h.scores,
    )
