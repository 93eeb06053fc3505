"""Game records: a finished game's record, checking record files, game lists."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from pitch.engine import Rules
from pitch.server.api.deps import (
    ERRORS,
    CheckLimit,
    Client,
    HandsLimit,
    ReadLimit,
    Service,
    TableId,
)
from pitch.server.kernel.schemas import GameListItem, MyTables, Problem
from pitch.server.records.check import (
    BodyError,
    RecordChecks,
    RecordsChecked,
    RecordsIn,
    answer_body,
)
from pitch.server.tables.live import hash_token
from pitch.server.tables.table_json import finished_record
from pitch.store import GameSummary

router = APIRouter(tags=["records"])

RECORDS_KEPT = 32
"""Finished games' records kept built (``TableService.records``); at the hand limit
(300) one is about 200 kB."""


def _items(rows: list[GameSummary]) -> list[GameListItem]:
    return [
        GameListItem(
            table=r.table_id,
            seat=r.seat,
            status=r.status,
            winner=r.winner,
            won=None if r.winner is None else Rules.from_dict(r.rules).side_of(r.seat) == r.winner,
            names=list(r.names),
            held=list(r.held),
            created_at=r.created_at,
            updated_at=r.updated_at,
        )
        for r in rows
    ]


@router.get("/api/tables/{table_id}/record", responses=ERRORS)
async def record(table_id: TableId, svc: Service, reads: ReadLimit) -> Response:
    """A finished game's record in the engine's record format (``pitch verify``)."""
    reads.take()
    t = await svc.lifecycle.find(table_id)
    body = svc.records.get(t.id)
    if body is None:
        rec = finished_record(t)  # 409 unless the game is over; then it never changes
        body = json.dumps(rec, ensure_ascii=False, separators=(",", ":")).encode()
        svc.records[t.id] = body
        while len(svc.records) > RECORDS_KEPT:
            svc.records.popitem(last=False)
    svc.records.move_to_end(t.id)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="pitch-{t.id}.json"'},
    )


@router.post(
    "/api/records/verify",
    responses={**ERRORS, 503: {"model": Problem}},
    response_model=RecordsChecked,
    # The body is read in a worker (below), so FastAPI is told its shape for the docs.
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": RecordsIn.model_json_schema()}},
        }
    },
)
async def verify_records(
    request: Request, client: Client, limit: CheckLimit, hands: HandsLimit
) -> Response:
    """Replay game records by the rules, as ``pitch verify`` does. The answer holds
    the records that follow them, rebuilt by the engine (the replay viewer shows
    only these), and the first problem of each that does not. 429 past the calls or
    the hands a client may have checked in a minute, or while its last check runs;
    503 while the server checks as many as it may."""
    body = await request.body()  # the guard read it, at most MAX_RECORDS_BODY bytes
    checks: RecordChecks = request.app.state.record_checks
    async with checks.turn(client):
        # One job reads the JSON, counts the hands, and replays them if the client may
        # still have that many checked (none if it may make no more checks): the body
        # is read once, in a worker, and a malformed one spends no allowance.
        allowance = hands.allowance() if limit.allowance() >= 1 else 0.0
        done = await checks.run(answer_body, body, allowance)
        del body
        if isinstance(done, BodyError):
            if done.errors is None:
                raise HTTPException(400, "There was an error parsing the body")
            raise RequestValidationError(done.errors)
        cost, answer = done
        limit.take()
        if answer is None:  # past the hands allowance, so not replayed: 429
            hands.take(float("inf"))
        # 429 too if another client of the same wider network spent them meanwhile.
        hands.take(cost)
        assert answer is not None
    return Response(answer, media_type="application/json")


@router.get("/api/players/{name}/games")
async def games(
    name: Annotated[str, PathParam(min_length=1, max_length=32)], svc: Service, reads: ReadLimit
) -> list[GameListItem]:
    """Recent *finished* games where a seat was claimed under this display name (a
    name is no secret: open tables are found with their seat tokens, below)."""
    reads.take()
    return _items(await svc.run_db(svc.repo.games_of, name))


@router.post("/api/my/tables")
async def my_tables(body: MyTables, svc: Service, reads: ReadLimit) -> list[GameListItem]:
    """The tables whose seat tokens the client holds (its own, in any state)."""
    reads.take()
    pairs = [(s.table, hash_token(s.token)) for s in body.seats]
    return _items(await svc.run_db(svc.repo.games_with_tokens, pairs))
