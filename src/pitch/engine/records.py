"""Game records: one JSON object per game; a file of many games is JSON Lines.

The format is documented in ``docs/record-format.md``. :func:`game_record` writes
one from a :class:`GameState`; :func:`verify_record` replays one by the rules and
reports the first field that disagrees, with the rule id it breaks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pitch.engine.actions import BID_BASE
from pitch.engine.cards import SUITS, card_str, cards_of, parse_card
from pitch.engine.errors import CardParseError, IllegalActionError, PitchError, RecordError
from pitch.engine.refusals import Refusal
from pitch.engine.rules import Rules
from pitch.engine.scoring import HandResult
from pitch.engine.state import BID, DEAL, OVER, GameState, HandRecord

FORMAT = "pitch-record"
VERSION = 1


def hand_to_dict(h: HandRecord) -> dict[str, Any]:
    r = h.result
    out: dict[str, Any] = {
        "dealer": h.dealer,
        "deal": [[card_str(c) for c in cards_of(m)] for m in h.deal],
        "bids": [[s, b] for s, b in h.bids],
        "pitcher": h.pitcher,
        "bid": h.bid,
        "trump": SUITS[h.trump] if h.trump is not None else None,
        "tricks": [
            {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner}
            for t in h.tricks
        ],
        "awards": r.awards if r else {"high": None, "low": None, "jack": None, "game": None},
        "delta": list(r.delta) if r else [0] * len(h.scores),
        "scores": list(h.scores),
    }
    if r is not None:
        out["game_points"] = list(r.game_counts)
        out["made"] = r.made
        out["award_cards"] = award_cards(r)
    return out


def award_cards(r: HandResult) -> dict[str, str | None]:
    """The trumps that decided High, Low and Jack (R5.1-R5.3), as text (``None``: not
    in play), so that a reader need not work them out."""
    cards = {"high": r.high_card, "low": r.low_card, "jack": r.jack_card}
    return {k: card_str(c) if c is not None else None for k, c in cards.items()}


def game_record(state: GameState, **extra: Any) -> dict[str, Any]:
    """The record of every finished hand of ``state`` (the hand in progress is left out)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "hands": [hand_to_dict(h) for h in state.history],
        "winner": state.winner,
    }
    rec.update(extra)
    return rec


def dumps(record: Mapping[str, Any]) -> str:
    """One record as one line of JSON."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def write_records(out: IO[str], records: Iterable[Mapping[str, Any]]) -> int:
    n = 0
    for r in records:
        out.write(dumps(r) + "\n")
        n += 1
    return n


@dataclass(frozen=True, slots=True)
class ReadItem:
    """One game read from a file: the parsed object, or why it could not be parsed."""

    index: int
    line: int
    record: Any
    error: str | None


def iter_records(text: str) -> Iterator[ReadItem]:
    """Games in ``text``: JSON Lines, or one JSON object, or a JSON array of them."""
    stripped = text.strip()
    if not stripped:
        return
    if stripped[0] == "[" or ("\n" in stripped and stripped[0] == "{"):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, list):
            for i, r in enumerate(whole):
                yield ReadItem(i, 1, r, None)
            return
        if isinstance(whole, dict):
            yield ReadItem(0, 1, whole, None)
            return
    index = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield ReadItem(index, lineno, json.loads(line), None)
        except json.JSONDecodeError as e:
            yield ReadItem(index, lineno, None, f"malformed JSON at column {e.colno}: {e.msg}")
        index += 1


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Every game in a file; raises :class:`RecordError` on the first bad line."""
    out = []
    for item in iter_records(Path(path).read_text(encoding="utf-8")):
        if item.error is not None:
            raise RecordError(f"{path}, line {item.line}: {item.error}")
        if not isinstance(item.record, dict):
            raise RecordError(f"{path}, game {item.index}: a record must be a JSON object")
        out.append(item.record)
    return out


@dataclass(frozen=True, slots=True)
class Problem:
    """Where a record breaks the rules, and what was expected there."""

    hand: int | None
    trick: int | None
    rule: str
    message: str
    seat: int | None = None
    """The seat whose bid or card the rules refuse (from 0), where that is the problem."""
    refusal: Refusal | None = None
    """That refusal as data, for a front end to word in its reader's language."""

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.trick is not None:
            where.append(f"trick {self.trick}")
        prefix = ", ".join(where)
        return f"{prefix + ': ' if prefix else ''}{self.rule}: {self.message}"


class _Bad(Exception):
    def __init__(self, rule: str, message: str, trick: int | None = None) -> None:
        self.rule, self.message, self.trick = rule, message, trick
        self.seat: int | None = None
        self.refusal: Refusal | None = None

    @classmethod
    def illegal(cls, e: IllegalActionError, trick: int | None = None) -> _Bad:
        """A bid or card the rules refuse: the engine's words, and its seat and reason."""
        bad = cls(e.rule, str(e), trick)
        bad.seat, bad.refusal = e.seat, e.refusal
        return bad


def verify_record(record: object) -> Problem | None:
    """Replay ``record`` by the rules. ``None`` if every field is right, else the first
    problem (later fields are not checked: the replay cannot go on past a broken rule)."""
    try:
        replay_record(record)
    except _VerifyError as e:
        return e.problem
    return None


class _VerifyError(RecordError):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def replay_record(record: object) -> GameState:
    """Replay a record and return the final state; raise :class:`RecordError` (with a
    ``problem`` attribute) at the first field that breaks the rules or the format."""
    if not isinstance(record, dict):
        raise _VerifyError(Problem(None, None, "format", "a record must be a JSON object"))
    try:
        rules = Rules.from_dict(record.get("rules"))
    except PitchError as e:
        raise _VerifyError(Problem(None, None, "rules", str(e))) from None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise _VerifyError(Problem(None, None, "format", "'hands' must be a list"))
    if "winner" not in record:
        raise _VerifyError(Problem(None, None, "format", "missing field 'winner'"))
    state: GameState | None = None
    for i, h in enumerate(hands):
        try:
            if state is not None and state.phase == OVER:
                raise _Bad("R6.2", f"side {state.winner} had already won; no hand may follow")
            state = _replay_hand(rules, state, h)
        except _Bad as b:
            raise _VerifyError(Problem(i, b.trick, b.rule, b.message, b.seat, b.refusal)) from None
    winner = state.winner if state is not None else None
    if not _same(record["winner"], winner):
        who = "nobody yet (the game is unfinished)" if winner is None else f"side {winner}"
        raise _VerifyError(
            Problem(None, None, "R6.2", f"winner is {_json(record['winner'])}; expected {who}")
        )
    return state if state is not None else GameState(rules)


def _json(x: object, limit: int = 60) -> str:
    """A record's value as JSON writes it (``null``, ``true``, ``"h"``), not as Python
    would (``None``, ``True``, ``'h'``): the reader wrote JSON. Long values are cut."""
    try:
        text = json.dumps(x, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(x)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _field(h: Mapping[str, Any], key: str) -> Any:
    if key not in h:
        raise _Bad("format", f"missing field {_json(key)}")
    return h[key]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _same(got: object, want: object) -> bool:
    """JSON equality without Python's coercions: ``false`` is not ``0``, ``1.0`` is not
    ``1``, ``true`` is not ``1``; lists compare item by item."""
    if want is None:
        return got is None
    if isinstance(want, bool):
        return isinstance(got, bool) and got == want
    if isinstance(want, int):
        return _is_int(got) and got == want
    if isinstance(want, list | tuple):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(_same(a, b) for a, b in zip(got, want, strict=True))
        )
    return type(got) is type(want) and got == want


def _replay_hand(rules: Rules, prev: GameState | None, h: object) -> GameState:
    if not isinstance(h, dict):
        raise _Bad("format", "a hand must be a JSON object")
    n = rules.players
    dealer = _field(h, "dealer")
    if not _is_int(dealer) or not 0 <= dealer < n:
        raise _Bad("R1.3", f"dealer must be a seat 0..{n - 1}, not {_json(dealer)}")
    if prev is None:
        state = GameState(rules, dealer=dealer)
    else:
        state = prev
        if dealer != state.dealer:
            raise _Bad(
                "R2.4", f"dealer is {dealer}; expected {state.dealer} (the deal passes left)"
            )
    assert state.phase == DEAL
    before = tuple(state.scores)
    hands_done = len(state.history)

    # Deal (R2).
    deal = _field(h, "deal")
    if not isinstance(deal, list) or len(deal) != n:
        raise _Bad("R2.2", f"deal must list {n} hands, one per seat")
    masks = []
    seen = 0
    for seat, cards in enumerate(deal):
        if not isinstance(cards, list) or len(cards) != 6:
            got = len(cards) if isinstance(cards, list) else _json(cards)
            raise _Bad("R2.2", f"seat {seat} must be dealt 6 cards, not {got}")
        m = 0
        for t in cards:
            try:
                c = parse_card(t)
            except CardParseError as e:
                raise _Bad("R2.1", f"seat {seat}: {e}") from None
            if (m | seen) >> c & 1:
                raise _Bad("R2.1", f"card {card_str(c)} is dealt twice")
            m |= 1 << c
        seen |= m
        masks.append(m)
    state.deal(masks)

    # Auction (R3).
    bids = _field(h, "bids")
    if not isinstance(bids, list):
        raise _Bad("format", "'bids' must be a list of [seat, bid]")
    for k, entry in enumerate(bids):
        if state.phase != BID:
            raise _Bad("R3.1", f"bid {k} ({_json(entry)}) comes after the auction ended")
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not _is_int(entry[0])
            or not _is_int(entry[1])
        ):
            raise _Bad("format", f"bid {k} must be [seat, bid], not {_json(entry)}")
        seat, bid = entry
        if seat != state.to_act:
            raise _Bad("R3.1", f"bid {k} is by seat {seat}; expected seat {state.to_act}")
        if not 0 <= bid <= 4:
            raise _Bad("R3.2", f"bid {k}: a bid is 0 (pass) to 4, not {bid}")
        try:
            state.apply(BID_BASE + bid)
        except IllegalActionError as e:
            raise _Bad.illegal(e) from None
    if state.phase == BID:
        raise _Bad("R3.1", f"the auction is unfinished: seat {state.to_act} has not bid")

    thrown_in = len(state.history) > hands_done
    pitcher, bid, trump = _field(h, "pitcher"), _field(h, "bid"), _field(h, "trump")
    if thrown_in:
        for key, val in (("pitcher", pitcher), ("bid", bid), ("trump", trump)):
            if val is not None:
                raise _Bad("R3.5", f"everyone passed and the hand was redealt; {key} must be null")
        if _field(h, "tricks") != []:
            raise _Bad("R3.5", "everyone passed and the hand was redealt; no tricks are played")
        _check_result(
            h,
            rules,
            {"high": None, "low": None, "jack": None, "game": None},
            [0] * rules.num_sides,
            list(before),
        )
        return state
    if not _same(pitcher, state.pitcher):
        raise _Bad("R3.7", f"pitcher is {_json(pitcher)}; expected seat {state.pitcher}")
    if not _same(bid, state.contract):
        raise _Bad("R3.7", f"bid is {_json(bid)}; expected {state.contract}")

    # Play (R4).
    tricks = _field(h, "tricks")
    if not isinstance(tricks, list) or len(tricks) != 6:
        raise _Bad("R4.6", "a hand is six tricks")
    for ti, t in enumerate(tricks):
        if not isinstance(t, dict):
            raise _Bad("format", "a trick must be a JSON object", ti)
        leader = t.get("leader")
        if not _same(leader, state.to_act):
            rule = "R4.1" if ti == 0 else "R4.6"
            raise _Bad(rule, f"leader is {_json(leader)}; expected seat {state.to_act}", ti)
        cards = t.get("cards")
        if not isinstance(cards, list) or len(cards) != n:
            raise _Bad("R4.2", f"a trick holds one card from each of the {n} players", ti)
        for text in cards:
            try:
                c = parse_card(text)
            except CardParseError as e:
                raise _Bad("R2.1", str(e), ti) from None
            try:
                state.apply(c)
            except IllegalActionError as e:
                raise _Bad.illegal(e, ti) from None
            first_card = ti == 0 and not state.tricks and len(state.trick) == 1
            if first_card and trump != SUITS[state.trump]:
                raise _Bad(
                    "R4.1",
                    f"trump is {_json(trump)}; the pitcher led {card_str(c)}, so trump is "
                    f"{_json(SUITS[state.trump])}",
                )
        done = state.history[-1].tricks if len(state.history) > hands_done else state.tricks
        winner = done[ti].winner
        if not _same(t.get("winner"), winner):
            raise _Bad("R4.5", f"winner is {_json(t.get('winner'))}; expected seat {winner}", ti)
    assert len(state.history) == hands_done + 1
    res = state.history[-1].result
    assert res is not None
    _check_result(h, rules, res.awards, list(res.delta), list(state.history[-1].scores))
    if "game_points" in h and not _same(h["game_points"], list(res.game_counts)):
        raise _Bad(
            "R5.4",
            f"game_points are {_json(h['game_points'])}; expected {_json(list(res.game_counts))}",
        )
    if "award_cards" in h and not _same(h["award_cards"], award_cards(res)):
        raise _Bad(
            "R5.1",
            f"award_cards are {_json(h['award_cards'])}; expected {_json(award_cards(res), 200)}",
        )
    if "made" in h and not _same(h["made"], res.made):
        raise _Bad("R5.6", f"made is {_json(h['made'])}; expected {_json(res.made)}")
    return state


_AWARD_RULES = {"high": "R5.1", "low": "R5.2", "jack": "R5.3", "game": "R5.4"}


def _check_result(
    h: Mapping[str, Any],
    rules: Rules,
    awards: Mapping[str, int | None],
    delta: list[int],
    scores: list[int],
) -> None:
    got = _field(h, "awards")
    if not isinstance(got, dict):
        raise _Bad("format", "'awards' must be an object with high, low, jack and game")
    for key, rule in _AWARD_RULES.items():
        if key not in got:
            raise _Bad("format", f"awards is missing {_json(key)}")
        if not _same(got[key], awards[key]):
            exp = "nobody" if awards[key] is None else f"side {awards[key]}"
            raise _Bad(rule, f"{key} went to {_json(got[key])}; expected {exp}")
    d = _field(h, "delta")
    if not _same(d, delta):
        raise _Bad("R5.6", f"delta is {_json(d)}; expected {delta}")
    s = _field(h, "scores")
    if not _same(s, scores):
        raise _Bad("R5.6", f"scores are {_json(s)}; expected {scores}")


__all__ = [
    "FORMAT",
    "VERSION",
    "Problem",
    "ReadItem",
    "award_cards",
    "dumps",
    "game_record",
    "hand_to_dict",
    "iter_records",
    "read_records",
    "replay_record",
    "verify_record",
    "write_records",
]
