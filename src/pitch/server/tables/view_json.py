"""The JSON a client draws the table from: one seat's view, or the public view.

Built from the engine's :class:`PlayerView` only, so nothing hidden can slip in:
the seat's own hand and legal actions (and why each other card or bid is refused, from
the engine), plus what every player at the table saw.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from pitch.engine import (
    BID,
    BID_BASE,
    DEAL,
    OVER,
    PLAY,
    SUITS,
    TERMINAL,
    GameState,
    HandRecord,
    LegalActions,
    PlayerView,
    Refusal,
    Rules,
    Trick,
    action_str,
    card_str,
    cards_of,
    refusal,
)
from pitch.engine.records import award_cards
from pitch.engine.refusals import CARD_ARGS, SUIT_ARGS
from pitch.engine.rules import END_TEXTS
from pitch.engine.state import game_end

PHASES = {DEAL: "deal", BID: "bid", PLAY: "play", OVER: "over"}


def _trick(leader: int, cards: tuple[int, ...], rules: Rules) -> dict[str, Any]:
    return {
        "leader": leader,
        "cards": [
            {"seat": s, "card": card_str(c)}
            for s, c in zip(rules.play_order(leader), cards, strict=False)
        ],
    }


def _finished_trick(t: Trick, rules: Rules) -> dict[str, Any]:
    d = _trick(t.leader, t.cards, rules)
    d["winner"] = t.winner
    return d


def refusal_json(why: Refusal | None) -> dict[str, Any] | None:
    """``{rule, key, args}`` for the client to translate (``None``: legal). Suits are
    sent as letters and cards as text, like everywhere else in the messages."""
    if why is None:
        return None
    args = {
        k: SUITS[v] if k in SUIT_ARGS else card_str(v) if k in CARD_ARGS else v
        for k, v in why.args.items()
    }
    return {"rule": why.rule, "key": why.key, "args": args}


_BIDS = tuple(range(BID_BASE, BID_BASE + 5))  # pass, bid 1..4


def refusals_json(view: PlayerView) -> dict[str, Any] | None:
    """For the seat to act: each card in its hand and, in the auction, each bid, by
    text, with the engine's reason it is refused (``None``: legal). ``None`` when it
    is not the seat's turn."""
    if not view.is_my_turn or view.phase not in (BID, PLAY):
        return None
    actions = [*cards_of(view.hand), *(_BIDS if view.phase == BID else ())]
    return {action_str(a): refusal_json(refusal(view, a)) for a in actions}


def game_end_json(rules: Rules, h: HandRecord) -> dict[str, str] | None:
    """Why the game ended on hand ``h`` (``{"reason", "text"}``: a key and the message
    key the summaries translate), or ``None`` when the game went on after it."""
    reason = game_end(rules, h.result, h.scores) if h.result is not None else None
    return None if reason is None else {"reason": reason, "text": END_TEXTS[reason]}


def _last_hand(h: HandRecord, rules: Rules | None = None) -> dict[str, Any]:
    r = h.result
    return {
        "dealer": h.dealer,
        "pitcher": h.pitcher,
        "bid": h.bid,
        "trump": SUITS[h.trump] if h.trump is not None else None,
        "thrown_in": h.pitcher is None,
        "awards": r.awards if r else None,
        "cards": award_cards(r) if r else None,
        "game_points": list(r.game_counts) if r else None,
        "won": list(r.won) if r else None,
        "made": r.made if r else None,
        "delta": list(r.delta) if r else None,
        "scores": list(h.scores),
        "end": game_end_json(rules, h) if rules is not None else None,
    }


def hand_results(history: tuple[HandRecord, ...]) -> list[dict[str, Any]]:
    """Every finished hand's result, as in ``last_hand``: public once the hand is over
    (the web client's score sheet after a reload)."""
    return [_last_hand(h) for h in history]


def view_json(view: PlayerView, *, private: bool) -> dict[str, Any]:
    """The game part of a ``state`` message. ``private`` False gives the public view
    (spectators): no hand, no legal actions."""
    d = public_json(view)
    d["hand"] = [card_str(c) for c in cards_of(view.hand)] if private else None
    d["legal"] = [action_str(a) for a in view.legal_actions()] if private else []
    d["refusals"] = refusals_json(view) if private else None
    d["pitch"] = _pitch_json(view.legal) if private else None
    return d


def _pitch_json(legal_mask: int) -> str | None:
    """The bid to send to pitch (R3.4), where the seat may pitch now; else None."""
    a = LegalActions(legal_mask).pitch()
    return None if a is None else action_str(a)


# One encoder for every message: json.dumps with options builds a new one per call.
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _texts(xs: list[str]) -> str:
    """A JSON list of card and action texts (``"Ah"``, ``"bid 2"``: nothing to escape)."""
    return '["' + '","'.join(xs) + '"]' if xs else "[]"


class StateTexts:
    """One moment of a table as ``state`` message texts, serialised once: the public
    part is shared and each seat adds only its own hand and legal actions."""

    def __init__(
        self, top: dict[str, Any], state: GameState | None, *, stopped: bool = False
    ) -> None:
        """``stopped``: the table is over although the engine's game is not (stopped at
        the hand limit, or by the last player's resignation mid-hand): nobody is to
        act, so no ``turn`` and no ``legal`` moves."""
        self._top = _dumps(top)[:-1]  # drop the closing brace: fields follow
        self._state = state
        self._stopped = stopped
        # One view serves both: the public part is the same from every seat, and the
        # seat to act (if any) also needs its own for its refusals.
        self._view = None if state is None else state.view(_acting_or_0(state))
        game = None if self._view is None else public_json(self._view)
        if game is not None and stopped:
            game["turn"] = None
        self._game = None if game is None else _dumps(game)[:-1]
        self._why: str | None = None

    def text(self, seat: int | None) -> str:
        head = f'{self._top},"seat":{"null" if seat is None else seat},"game":'
        if self._game is None or self._state is None:
            return head + "null}"
        if seat is None:
            return head + self._game + ',"hand":null,"legal":[],"refusals":null,"pitch":null}}'
        st = self._state
        phase = st.phase
        hand = _hand_json(0 if phase == OVER else st.hands[seat])
        mine = phase in (BID, PLAY) and st.current_player() == seat and not self._stopped
        if mine:
            mask = st.legal_mask()
            legal, why, pitch = _legal_json(mask), self._refusals(), _pitch_text(mask)
        else:
            legal, why, pitch = "[]", "null", "null"
        return (
            f'{head}{self._game},"hand":{hand},"legal":{legal},"refusals":{why},"pitch":{pitch}}}}}'
        )

    def _refusals(self) -> str:
        """The refusals of the seat to act, built once for all its sockets."""
        if self._why is None:
            assert self._view is not None
            self._why = _dumps(refusals_json(self._view))
        return self._why


def _acting_or_0(state: GameState) -> int:
    return state.to_act if state.phase in (BID, PLAY) else 0


# A seat's hand changes only when it plays, and the legal actions repeat a lot: the
# texts of both are kept by card or action mask.
@functools.lru_cache(maxsize=8192)
def _hand_json(mask: int) -> str:
    return _texts([card_str(c) for c in cards_of(mask)])


@functools.lru_cache(maxsize=8192)
def _legal_json(mask: int) -> str:
    return _texts(LegalActions(mask).texts())


@functools.lru_cache(maxsize=8192)
def _pitch_text(mask: int) -> str:
    return _dumps(_pitch_json(mask))


def public_json(view: PlayerView) -> dict[str, Any]:
    """Everything in a view that every player at the table saw."""
    rules = view.rules
    turn = view.current_player if view.current_player >= 0 else None
    tricks_taken = [0] * rules.num_sides
    for t in view.tricks:
        tricks_taken[rules.side_of(t.winner)] += 1
    return {
        "phase": PHASES.get(view.phase, "deal"),
        "hand_number": len(view.history) + (0 if view.phase == OVER else 1),
        "turn": turn if view.current_player != TERMINAL else None,
        "dealer": view.dealer,
        "scores": list(view.scores),
        "sides": [list(seats) for seats in rules.sides],
        "hand_sizes": list(view.hand_sizes),
        "bids": [
            {"seat": s, "bid": b, "text": "pass" if b == 0 else f"bid {b}"} for s, b in view.bids
        ],
        "high_bid": view.high_bid,
        "high_bidder": view.high_bidder if view.high_bidder >= 0 else None,
        "pitcher": view.pitcher if view.pitcher >= 0 else None,
        "contract": view.contract or None,
        "trump": SUITS[view.trump] if view.trump >= 0 else None,
        "trick": _trick(view.leader, view.trick, rules) if view.leader >= 0 else None,
        "tricks": [_finished_trick(t, rules) for t in view.tricks],
        "last_trick": _finished_trick(view.last_trick, rules) if view.last_trick else None,
        "tricks_taken": tricks_taken,
        "last_hand": _last_hand(view.history[-1], rules) if view.history else None,
        "hands_played": len(view.history),
        "winner": view.winner,
    }
