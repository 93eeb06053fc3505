"""Analyses of finished games (issue 47): ask for one, then poll its job."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from pitch.server.analysis.room import Job
from pitch.server.analysis.upload import (
    AnalysisIn,
    Prepared,
    Refused,
    canonical,
    decisions_in,
    prepare_upload,
)
from pitch.server.api.deps import ERRORS, AnalysisLimit, Client, ReadLimit, Service
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.schemas import Problem
from pitch.server.records.check import RecordChecks
from pitch.server.tables.table_json import finished_record

router = APIRouter(tags=["analysis"])


class AnalysisJob(BaseModel):
    """An analysis: its job while it runs, its result once done."""

    job: str | None
    """The job to poll (``GET /api/analysis/{job}``); ``null`` for a stored analysis."""
    state: str
    """``queued``, ``running``, ``done`` or ``failed``."""
    done: int
    """Decisions analysed so far."""
    total: int
    """Decisions to analyse."""
    place: int = 0
    """Jobs queued ahead of this one."""
    result: dict[str, Any] | None = None
    """Once done: ``pitch analyze --json``'s object (docs/bots.md, ``version`` 1),
    holding this one game."""
    error: str | None = None
    """Once failed: why, in English."""


def _answer(job: Job | None, result: bytes | None, place: int = 0, status: int = 200) -> Response:
    """The answer as bytes: a stored result (up to a few hundred kB) is sent as it was
    stored, never parsed and written again."""
    head: dict[str, Any] = {
        "job": None if job is None else job.id,
        "state": "done" if job is None else job.state,
        "done": 0 if job is None else job.done,
        "total": 0 if job is None else job.total,
        "place": place,
        "error": None if job is None else job.error,
    }
    if result is None and job is not None:
        result = job.result
    if job is None:
        head["done"] = head["total"] = _decisions(result)
    text = json.dumps(head, separators=(",", ":"))[:-1]
    body = text.encode() + b',"result":' + (result if result is not None else b"null") + b"}"
    return Response(body, status_code=status, media_type="application/json")


def _decisions(result: bytes | None) -> int:
    # Only for a stored result's progress fields: the count without a parse.
    return 0 if result is None else result.count(b'"n":')


@router.post(
    "/api/analysis",
    responses={**ERRORS, 202: {"model": AnalysisJob}, 503: {"model": Problem}},
    response_model=AnalysisJob,
    # The body is read in a record-check worker (below): FastAPI is told its shape.
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": AnalysisIn.model_json_schema()}},
        }
    },
)
async def ask(
    request: Request, client: Client, svc: Service, limit: AnalysisLimit, reads: ReadLimit
) -> Response:
    """Analyse a finished game: this server's (``table``) or one game of a record file
    (``records`` and ``game``, at most 2 MiB, checked by the rules first, as
    ``/api/records/verify`` does). 200 with the result if it was analysed before; else
    202 with the job to poll. 429 past the analyses a client may start in a minute or
    while its last one runs, 503 while the queue is full (both with ``Retry-After``),
    422 ``record_too_long`` past the hands or decisions analysed, ``bad_record`` for a
    record the rules refuse."""
    body = await request.body()  # the guard read it, at most 2 MiB
    checks: RecordChecks = request.app.state.record_checks
    async with checks.turn(client):
        got = await checks.run(prepare_upload, body)
    del body
    if isinstance(got, Refused):
        if got.code == "bad_request":
            if got.errors is None:
                raise HTTPException(400, got.detail)
            raise RequestValidationError(got.errors)
        if got.code == "record_too_long":
            assert got.limit is not None
            raise ServiceError(422, got.detail, "record_too_long", limit=got.limit)
        raise ServiceError(422, got.detail, "bad_record")
    table_id: str | None = None
    if isinstance(got, Prepared):
        record, decisions, game = got.record, got.decisions, got.game
    else:
        assert got.table is not None
        reads.take()
        t = await svc.lifecycle.find(got.table)
        finished_record(t)  # 409 unless the game is over
        assert t.state is not None
        record, decisions, game, table_id = canonical(t.state), decisions_in(t.state), 0, t.id
    out = await svc.analyses.submit(
        client, record, decisions, game=game, table_id=table_id, take=limit.take
    )
    if isinstance(out, bytes):
        return _answer(None, out)
    return _answer(out, None, svc.analyses.place(out), status=202)


JobId = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


@router.get(
    "/api/analysis/{job_id}",
    responses={404: {"model": Problem}},
    response_model=AnalysisJob,
)
async def poll(job_id: JobId, svc: Service) -> Response:
    """An analysis job's progress (decisions done of all), then its result. Polling
    costs the server a lookup in memory; jobs are kept a while after they end (the
    result stays stored: ask for the game again)."""
    job = svc.analyses.job(job_id)
    if job is None:
        raise ServiceError(404, "no analysis job has this id", "no_job")
    return _answer(job, None, svc.analyses.place(job))
