"""Per-seat views: a seat's own cards plus public information, nothing else.

Bots receive a :class:`PlayerView`, never a :class:`GameState`. Everything in it
is either the seat's own hand or something every player at the table saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pitch.engine.cards import BIT, SUIT_OF
from pitch.engine.rules import Rules
from pitch.engine.state import (
    BID,
    CHANCE,
    OVER,
    PLAY,
    TERMINAL,
    HandRecord,
    LegalActions,
    Trick,
)

if TYPE_CHECKING:
    from pitch.engine.state import GameState


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
    def unseen(self) -> int:
        """Cards this seat has not seen this hand: others' hands and the undealt cards."""
        return ((1 << 52) - 1) & ~self.hand & ~self.played


def make_view(state: GameState, seat: int) -> PlayerView:
    n = state.n
    if not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"R1.3: seats are 0..{n - 1}, not {seat!r}")
    played_by = [0] * n
    voids = [0] * n
    trump = state.trump
    tricks = state.tricks
    for t in tricks:
        _scan(t.leader, t.cards, n, trump, played_by, voids)
    if state.trick:
        _scan(state.leader, state.trick, n, trump, played_by, voids)
    played = 0
    for m in played_by:
        played |= m
    phase = state.phase
    cp = state.current_player()
    legal = state.legal_mask() if cp == seat and phase in (BID, PLAY) else 0
    history = state.history
    if any(h.pitcher is None for h in history):
        history = tuple(_public(h, seat) for h in history)
    return PlayerView(
        rules=state.rules,
        seat=seat,
        phase=phase,
        current_player=cp if phase != OVER else TERMINAL,
        dealer=state.dealer,
        scores=tuple(state.scores),
        hand=state.hands[seat] if phase != OVER else 0,
        dealt=state.dealt[seat] if cp != CHANCE else 0,
        hand_sizes=tuple(h.bit_count() for h in state.hands) if cp != CHANCE else (0,) * n,
        bids=state.bids,
        high_bid=state.high_bid,
        high_bidder=state.high_bidder,
        pitcher=state.pitcher if phase in (PLAY, OVER) else -1,
        contract=state.contract,
        trump=trump,
        leader=state.leader,
        trick=state.trick,
        holder=state.best_seat if state.trick else -1,
        tricks=tricks,
        played=played,
        played_by=tuple(played_by),
        voids=tuple(voids),
        legal=legal,
        history=history,
        winner=state.winner,
    )


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
