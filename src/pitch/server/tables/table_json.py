"""A live table as JSON: its seat list and its ``state`` messages.

:func:`seat_list` is the one builder of a table's seats as clients see them: every
``state`` message carries it and ``GET /api/tables/{id}`` answers it (``SeatInfo``
documents the shape). The game part of a state comes from :mod:`view_json`.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from pitch.engine import Rules, action_str, game_record
from pitch.server.kernel.errors import ServiceError
from pitch.server.tables.live import LiveTable, is_open
from pitch.server.tables.view_json import StateTexts


def seat_list(t: LiveTable) -> list[dict[str, Any]]:
    """The seats, in ``SeatInfo``'s shape. Plain dicts: this runs on every broadcast."""
    return [
        {
            "seat": i,
            "kind": s.kind,
            "bot": s.bot,
            "name": None if s.pending else s.name,
            "claimed": s.claimed,
            "connected": bool(s.conns) if s.kind == "human" else True,
            "substituted": t.substituted(i),
            "open": is_open(t, s),
            "arriving": s.name if s.pending else None,
            "since": t.holder_since(i),
        }
        for i, s in enumerate(t.seats)
    ]


@functools.lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> dict[str, Any]:
    """A table's rules as sent in every ``state`` (read-only: shared between tables)."""
    return rules.to_dict()


def _last_json(t: LiveTable) -> dict[str, Any] | None:
    if t.last is None:
        return None
    return {**t.last, "text": action_str(t.last["action"])}


def state_texts(t: LiveTable) -> StateTexts:
    """The table's ``state`` messages as of now (one per seat, on demand)."""
    top = {
        "type": "state",
        "table": t.id,
        "seq": t.seq,
        "status": t.status,
        "seats": seat_list(t),
        "rules": _rules_json(t.rules),
        "last": _last_json(t),
        "turn_deadline": t.turn_deadline,
        "rematch": t.rematch,
        "resigned": t.resigned,
    }
    return StateTexts(top, t.state, stopped=t.status == "over")


def state_message(t: LiveTable, seat: int | None) -> dict[str, Any]:
    """The ``state`` message for one seat (``None``: the public view)."""
    return dict(json.loads(state_texts(t).text(seat)))


def finished_record(t: LiveTable) -> dict[str, Any]:
    """A finished game's record in the engine's record format (``pitch verify``)."""
    if t.state is None or t.status != "over":
        raise ServiceError(409, "the game is not over yet", "not_over")
    extra = {} if t.resigned is None else {"resigned": t.resigned}
    return game_record(t.state, table=t.id, players=t.names(), **extra)
