"""An analysis request's body, read and checked in a record-check worker (the body may
hold 2 MiB of JSON: never read on the event loop), and the canonical form of a record
whose hash keys the stored analyses. Imports only the engine: the record checkers
load no bot."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pitch.engine import GameState, game_record, replay_record
from pitch.engine.errors import PitchError, RecordError

MAX_GAMES: Final = 100
"""Games one uploaded file may hold (as ``POST /api/records/verify``)."""
MAX_HANDS: Final = 500
"""A record with more hands is refused before its replay (``pitch.bots.analysis``'s
own bound: a game to 21 at seven seats takes far fewer)."""


class AnalysisIn(BaseModel):
    """What to analyse: a finished game of this server (``table``) or one game of an
    uploaded record file (``records``, as read from the file; ``game`` picks one)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    table: Annotated[str | None, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")] = None
    records: Annotated[list[Any] | None, Field(min_length=1, max_length=MAX_GAMES)] = None
    game: Annotated[int, Field(ge=0, lt=MAX_GAMES)] = 0

    @model_validator(mode="after")
    def _one(self) -> AnalysisIn:
        if (self.table is None) == (self.records is None):
            raise ValueError("give a table or records, not both")
        if self.table is not None and self.game != 0:
            raise ValueError("a table holds one game: game must be 0")
        if self.records is not None and self.game >= len(self.records):
            raise ValueError("game is past the records given")
        return self


@dataclass(frozen=True, slots=True)
class Prepared:
    """A record ready to analyse: its canonical JSON (:func:`canonical`) and the
    decisions it holds."""

    record: str
    decisions: int
    game: int
    """The game's index in its file (it seeds the decisions)."""


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a body is no analysis: ``code`` (``bad_request``: FastAPI's 422 with
    ``errors``; ``bad_record``; ``record_too_long``), ``detail`` in English."""

    code: str
    detail: str
    errors: list[dict[str, Any]] | None = None
    limit: int | None = None


def canonical(state: GameState) -> str:
    """A game's record as the engine writes it from its replay, without the names and
    the rest a table or a file adds, with sorted keys: the same game gives the same text
    whether it came from a table or a file."""
    return json.dumps(game_record(state), sort_keys=True, separators=(",", ":"))


def decisions_in(state: GameState) -> int:
    return sum(len(h.bids) + sum(len(t.cards) for t in h.tricks) for h in state.history)


def cache_key(record: str, game: int, settings: str) -> str:
    """The stored analysis's key: the record, the game's index (it seeds the
    decisions) and the analysis's settings."""
    h = hashlib.sha256()
    for part in (settings, str(game), record):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def read_request(body: bytes) -> AnalysisIn | Refused:
    try:
        data = json.loads(body)
    except json.JSONDecodeError as e:
        errs = [{"loc": ["body", e.pos], "msg": "JSON decode error", "type": "json_invalid"}]
        return Refused("bad_request", "invalid body", errs)
    except (ValueError, RecursionError):
        return Refused("bad_request", "There was an error parsing the body", None)
    try:
        return AnalysisIn.model_validate(data)
    except ValidationError as e:
        errs = [
            {"loc": ["body", *x["loc"]], "msg": x["msg"], "type": x["type"]}
            for x in e.errors(include_url=False)[:20]
        ]
        return Refused("bad_request", "invalid body", errs)


def prepare_upload(body: bytes) -> AnalysisIn | Prepared | Refused:
    """In a record-check worker: ``body`` read; a table's request as it came (the
    server has its record), or an uploaded game checked by the rules (the record check
    first) and made canonical; or why not."""
    req = read_request(body)
    del body
    if isinstance(req, Refused) or req.records is None:
        return req
    rec = req.records[req.game]
    hands = rec.get("hands") if isinstance(rec, dict) else None
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        return Refused(
            "record_too_long",
            f"a record of {len(hands)} hands is too long to analyse (at most {MAX_HANDS})",
            limit=MAX_HANDS,
        )
    try:
        state = replay_record(rec)
    except (RecordError, PitchError) as e:
        p = getattr(e, "problem", None)
        return Refused("bad_record", p.message if p is not None else str(e))
    return Prepared(canonical(state), decisions_in(state), req.game)
