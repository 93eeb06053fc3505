"""Bot side: rebuild a seat's :class:`~pitch.engine.PlayerView` from protocol events.

The bot knows its own cards and every public event, so it keeps a shadow
:class:`~pitch.engine.GameState` in which the other seats' hands hold only the card
each is playing at the moment it plays it. The engine then does all the rules
(auction, trick winners, scoring, the end of the game) exactly as at the host, and
``state.view(seat)`` is the host's view but for ``hand_sizes``, which is set from the
cards played. The host's ``trick`` and ``hand`` results are checked against the
shadow; a mismatch is a :class:`ProtocolError` (the two sides disagree on the rules).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from pitch.engine import (
    BID,
    BID_BASE,
    CHANCE,
    DEAL,
    MAX_BID,
    PLAY,
    GameState,
    PitchError,
    PlayerView,
    Rules,
    parse_action,
    parse_card,
)
from pitch.engine.state import HAND_SIZE


class ProtocolError(ValueError):
    """A message the bot cannot make sense of, or one that contradicts the game so far."""


def _int(msg: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = msg.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ProtocolError(f"{msg.get('type')!r} message: {key!r} must be an integer {lo}..{hi}")
    return v


class ViewTracker:
    """One game, as one seat hears it. Feed it every message with :meth:`apply`;
    :meth:`view` is then the seat's view (equal to the host's ``state.view(seat)``)."""

    def __init__(self, rules: Rules, seat: int) -> None:
        if not 0 <= seat < rules.players:
            raise ProtocolError(f"seat {seat} is not at a {rules.players}-player table")
        self.rules = rules
        self.seat = seat
        self.state: GameState | None = None
        self.winner: int | None = None

    @classmethod
    def from_message(cls, msg: Mapping[str, Any]) -> ViewTracker:
        try:
            rules = Rules.from_dict(msg.get("rules"))
        except (PitchError, TypeError, ValueError) as e:
            raise ProtocolError(f"'game' message: bad rules: {e}") from None
        return cls(rules, _int(msg, "seat", 0, rules.players - 1))

    # ---------------------------------------------------------------- events

    def apply(self, msg: Mapping[str, Any]) -> None:
        """Apply one public event (``deal``, ``bid``, ``play``, ``trick``, ``hand``)."""
        kind = msg.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ProtocolError(f"unknown message type {kind!r}")
        handler(self, msg)

    def _need_state(self, kind: str) -> GameState:
        if self.state is None:
            raise ProtocolError(f"{kind!r} message before the first 'deal'")
        return self.state

    def _deal(self, msg: Mapping[str, Any]) -> None:
        n = self.rules.players
        dealer = _int(msg, "dealer", 0, n - 1)
        cards = msg.get("hand")
        if not isinstance(cards, list) or len(cards) != HAND_SIZE:
            raise ProtocolError(f"'deal' message: 'hand' must be a list of {HAND_SIZE} cards")
        try:
            hand = 0
            for c in cards:
                hand |= 1 << parse_card(c)
        except PitchError as e:
            raise ProtocolError(f"'deal' message: {e}") from None
        if hand.bit_count() != HAND_SIZE:
            raise ProtocolError("'deal' message: the hand repeats a card")
        st = self.state
        if st is None:
            st = self.state = GameState(self.rules, dealer=dealer)
        if st.phase != DEAL:
            raise ProtocolError("'deal' message while a hand is in play or the game is over")
        if st.dealer != dealer:
            raise ProtocolError(f"'deal' message: dealer {dealer}, expected {st.dealer} (R2.4)")
        scores = msg.get("scores")
        if scores != st.scores:
            raise ProtocolError(f"'deal' message: scores {scores!r}, expected {st.scores}")
        # Only this seat's cards are known; the others' hands stay empty and each
        # card is put in its player's hand as it is played (see _play).
        st.hands = [0] * n
        st.dealt = [0] * n
        st.hands[self.seat] = st.dealt[self.seat] = hand
        st.ndealt = HAND_SIZE * n
        st.phase = BID
        st.to_act = (dealer + 1) % n  # R3.1

    def _bid(self, msg: Mapping[str, Any]) -> None:
        st = self._need_state("bid")
        seat = _int(msg, "seat", 0, self.rules.players - 1)
        bid = _int(msg, "bid", 0, MAX_BID)
        self._act(st, seat, BID_BASE + bid, "bid")

    def _play(self, msg: Mapping[str, Any]) -> None:
        st = self._need_state("play")
        seat = _int(msg, "seat", 0, self.rules.players - 1)
        try:
            card = parse_card(msg.get("card"))  # type: ignore[arg-type]
        except PitchError as e:
            raise ProtocolError(f"'play' message: {e}") from None
        if seat != self.seat and st.phase == PLAY and st.current_player() == seat:
            bit = 1 << card
            if st.hands[self.seat] & bit or st.played_mask() & bit:
                raise ProtocolError(f"'play' message: seat {seat} cannot hold {msg.get('card')}")
            st.hands[seat] |= bit
            st.dealt[seat] |= bit
        self._act(st, seat, card, "play")

    def _act(self, st: GameState, seat: int, action: int, kind: str) -> None:
        if st.current_player() != seat:
            raise ProtocolError(
                f"{kind!r} message for seat {seat}, but seat {st.current_player()} is to act"
            )
        try:
            st.apply(action)
        except PitchError as e:
            raise ProtocolError(f"{kind!r} message: {e}") from None

    def _trick(self, msg: Mapping[str, Any]) -> None:
        st = self._need_state("trick")
        winner = _int(msg, "winner", 0, self.rules.players - 1)
        if st.tricks:
            last = st.tricks[-1]
        elif st.phase == DEAL and st.history and st.history[-1].tricks:
            last = st.history[-1].tricks[-1]  # the hand just ended with this trick
        else:
            raise ProtocolError("'trick' message before any trick was finished")
        if last.winner != winner:
            raise ProtocolError(f"'trick' message: winner {winner}, expected {last.winner} (R4.5)")

    def _hand(self, msg: Mapping[str, Any]) -> None:
        st = self._need_state("hand")
        if st.phase in (BID, PLAY):
            raise ProtocolError("'hand' message before the hand was over")
        scores = msg.get("scores")
        if not st.history or list(st.history[-1].scores) != scores:
            expect = list(st.history[-1].scores) if st.history else None
            raise ProtocolError(f"'hand' message: scores {scores!r}, expected {expect} (R5)")

    # ----------------------------------------------------------------- views

    def view(self, legal: Sequence[str] | None = None) -> PlayerView:
        """The seat's view now. ``legal`` (the ``act`` message's list) must agree with
        the rules, or :class:`ProtocolError`."""
        st = self.state
        if st is None:
            raise ProtocolError("no 'deal' message yet")
        v = st.view(self.seat)
        if st.current_player() != CHANCE:
            # Hand sizes are public: six cards less those played this hand.
            sizes = tuple(HAND_SIZE - m.bit_count() for m in v.played_by)
            v = dataclasses.replace(v, hand_sizes=sizes)
        if legal is not None:
            try:
                mask = 0
                for text in legal:
                    mask |= 1 << parse_action(text)
            except (PitchError, TypeError) as e:
                raise ProtocolError(f"'act' message: bad 'legal' list: {e}") from None
            if mask != v.legal:
                mine = ", ".join(v.legal_actions().texts()) or "nothing (not this seat's turn)"
                raise ProtocolError(f"'act' message: legal {list(legal)}, expected {mine}")
        return v


_HANDLERS = {
    "deal": ViewTracker._deal,
    "bid": ViewTracker._bid,
    "play": ViewTracker._play,
    "trick": ViewTracker._trick,
    "hand": ViewTracker._hand,
}
