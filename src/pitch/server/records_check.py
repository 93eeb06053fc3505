"""Game records a browser asks the server to check before the replay viewer shows them.

The viewer never trusts a file: it sends the parsed records here, the engine replays
each one by the rules (:func:`pitch.engine.replay_record`, what ``pitch verify`` does),
and what comes back is rebuilt by the engine from that replay, so every card, suit and
number in it is one the engine wrote. Names are the only free text, and they are
bounded here and shown as text by the client.
"""

from __future__ import annotations

from typing import Any

from pitch.engine import game_record, replay_record
from pitch.engine.errors import RecordError
from pitch.server.text import one_line
from pitch.server.view_json import game_end_json, refusal_json

MAX_GAMES = 100
"""Games one request may hold (a long session's file; a replay takes about 0.15 ms a
hand, and the hands a client may have checked are counted too: ``hands_in``)."""

MAX_NAME = 64


def hands_in(records: list[Any]) -> int:
    """The hands ``records`` hold, as sent: what replaying them costs."""
    return sum(
        len(r["hands"]) for r in records if isinstance(r, dict) and isinstance(r.get("hands"), list)
    )


def _names(record: dict[str, Any], players: int) -> list[str | None] | None:
    names = record.get("players")
    if not isinstance(names, list) or len(names) != players:
        return None
    out: list[str | None] = []
    for n in names:
        if n is None:
            out.append(None)
        elif isinstance(n, str):
            out.append(one_line(n, MAX_NAME))
        else:
            return None
    return out


def checked_record(record: object) -> dict[str, Any]:
    """The record as the engine rebuilds it from its own replay; raises
    :class:`RecordError` (with ``problem``) where it breaks the rules or the format."""
    state = replay_record(record)
    assert isinstance(record, dict)
    extra: dict[str, Any] = {}
    names = _names(record, state.rules.players)
    if names is not None:
        extra["players"] = names
    table = record.get("table")
    if isinstance(table, str) and table.isalnum() and len(table) <= 32:
        extra["table"] = table
    end = game_end_json(state.rules, state.history[-1]) if state.winner is not None else None
    if end is not None:
        extra["end"] = end  # for the replay viewer's last summary: why the game ended
    return game_record(state, **extra)


def check_records(records: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each record rebuilt, and the problems of those that fail (game index, rule, text)."""
    good: list[dict[str, Any]] = []
    bad: list[dict[str, Any]] = []
    for i, r in enumerate(records):
        try:
            good.append(checked_record(r))
        except RecordError as e:
            p = getattr(e, "problem", None)
            problem: dict[str, Any] = {
                "game": i,
                "hand": getattr(p, "hand", None),
                "trick": getattr(p, "trick", None),
                "rule": getattr(p, "rule", "format"),
                # The engine's words alone: game, hand, trick and rule are fields.
                "message": p.message if p is not None else str(e),
            }
            if p is not None and p.refusal is not None and p.seat is not None:
                # A refused bid or card, as data: the viewer words it (seats from 1,
                # card names) in its reader's language.
                problem["seat"] = p.seat
                problem["refusal"] = refusal_json(p.refusal)
            bad.append(problem)
    return good, bad
