"""Host side: the protocol's events, derived from one seat's views.

A host sees a seat only through its :class:`~pitch.engine.PlayerView`. Everything the
protocol tells a bot (the deal of its own cards, every bid, card and trick, each hand's
result) is in the view: the hand in progress in ``bids``/``tricks``/``trick``, finished
hands in ``history``. So the events of a game are a pure function of the latest view,
and each new view's list extends the previous one: a host sends the part not yet sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pitch.engine import BID, PLAY, HandRecord, PlayerView, Trick, card_str

Event = dict[str, Any]
"""One protocol message: a JSON object with a ``type``."""


def game_message(view: PlayerView, names: Sequence[str] | None = None) -> Event:
    n = view.rules.players
    return {
        "type": "game",
        "seat": view.seat,
        "rules": view.rules.to_dict(),
        "names": list(names) if names is not None else [f"seat {i}" for i in range(n)],
    }


def act_message(view: PlayerView, seconds: float) -> Event:
    return {"type": "act", "legal": view.legal_actions().texts(), "time": seconds}


def end_message(winner: int | None) -> Event:
    return {"type": "end", "winner": winner}


def _deal(dealer: int, hand: int, scores: Sequence[int]) -> Event:
    cards = [card_str(c) for c in range(51, -1, -1) if hand >> c & 1]
    return {"type": "deal", "dealer": dealer, "hand": cards, "scores": list(scores)}


def _auction_and_play(
    n: int,
    bids: Sequence[tuple[int, int]],
    tricks: Sequence[Trick],
    leader: int,
    trick: Sequence[int],
) -> list[Event]:
    out: list[Event] = [{"type": "bid", "seat": s, "bid": b} for s, b in bids]
    for t in tricks:
        out.extend(_plays(n, t.leader, t.cards))
        out.append({"type": "trick", "winner": t.winner})
    out.extend(_plays(n, leader, trick))
    return out


def _plays(n: int, leader: int, cards: Sequence[int]) -> list[Event]:
    return [
        {"type": "play", "seat": (leader + i) % n, "card": card_str(c)} for i, c in enumerate(cards)
    ]


def hand_events(h: HandRecord, seat: int, n: int, scores_before: Sequence[int]) -> list[Event]:
    """A finished hand, as one seat was told it: its deal, the auction, the tricks and
    the result. A thrown-in hand (everyone passed, ``all_pass='redeal'``) ends with a
    ``hand`` event with no awards, a zero delta and ``"thrown_in": true``."""
    out = [_deal(h.dealer, h.deal[seat], scores_before)]
    out.extend(_auction_and_play(n, h.bids, h.tricks, 0, ()))
    if h.result is None:
        awards: dict[str, int | None] = {"high": None, "low": None, "jack": None, "game": None}
        out.append(
            {
                "type": "hand",
                "awards": awards,
                "delta": [0] * len(h.scores),
                "scores": list(h.scores),
                "thrown_in": True,
            }
        )
    else:
        out.append(
            {
                "type": "hand",
                "awards": h.result.awards,
                "delta": list(h.result.delta),
                "scores": list(h.scores),
            }
        )
    return out


class GameEvents:
    """The events of one game for one seat, kept up to date from its views.

    >>> import random
    >>> from pitch.engine import GameState, Rules
    >>> s = GameState(Rules(players=3), dealer=0)
    >>> s.deal_random(random.Random(1))
    >>> s.apply(52)  # seat 1 passes
    >>> ev = GameEvents(s.view(2))
    >>> [e["type"] for e in ev.update(s.view(2))]
    ['game', 'deal', 'bid']
    """

    def __init__(self, first: PlayerView, names: Sequence[str] | None = None) -> None:
        self.seat = first.seat
        self.rules = first.rules
        self._finished: list[Event] = [game_message(first, names)]
        self._hands_done = 0
        self._scores: tuple[int, ...] = (0,) * first.rules.num_sides
        self._current: tuple[int, int, int, int] | None = None
        """The hand in progress at the last update: dealer, own deal, bids, cards played."""

    def continues(self, view: PlayerView) -> bool:
        """Whether ``view`` can be a later moment of this game: same seat and table,
        and the hands seen so far (finished, and the one in progress) are still there."""
        done = self._hands_done
        history = view.history
        if view.seat != self.seat or view.rules != self.rules or len(history) < done:
            return False
        if done and history[done - 1].scores != self._scores:
            return False
        cur = self._current
        if cur is None:
            return True
        dealer, dealt, nbids, ncards = cur
        if len(history) > done:  # that hand has finished since
            return history[done].dealer == dealer and history[done].deal[self.seat] == dealt
        return (
            view.phase in (BID, PLAY)
            and view.dealer == dealer
            and view.dealt == dealt
            and len(view.bids) >= nbids
            and view.played.bit_count() >= ncards
        )

    def update(self, view: PlayerView) -> list[Event]:
        """All events of the game up to ``view``, the ``game`` event first."""
        n = self.rules.players
        for h in view.history[self._hands_done :]:
            self._finished.extend(hand_events(h, self.seat, n, self._scores))
            self._scores = h.scores
            self._hands_done += 1
        if view.phase not in (BID, PLAY):
            self._current = None
            return self._finished
        self._current = (view.dealer, view.dealt, len(view.bids), view.played.bit_count())
        current = [_deal(view.dealer, view.dealt, view.scores)]
        current.extend(_auction_and_play(n, view.bids, view.tricks, view.leader, view.trick))
        return self._finished + current
