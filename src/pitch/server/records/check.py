"""Game records a browser asks the server to check before the replay viewer shows them.

The viewer never trusts a file: it sends the parsed records here, the engine replays
each one by the rules (:func:`pitch.engine.replay_record`, what ``pitch verify`` does),
and what comes back is rebuilt by the engine from that replay, so every card, suit and
number in it is one the engine wrote. Names are the only free text, and they are
bounded here and shown as text by the client.

A request's whole work happens in a worker process (:class:`RecordChecks`): reading
the JSON, checking its shape, replaying the games and writing the answer. A 2 MiB body
holds some 3,600 hands (half a second of replay, and JSON parsing holds the GIL): on
the event loop, or in a thread beside it, ten of them at once held up every other
table's moves and reads for over a second, and left the server some 70 MiB larger.
Here at most ``workers`` run at once, a few more wait, and one address has one at a
time; the rest are refused at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from pitch.engine import game_record, replay_record
from pitch.engine.errors import RecordError
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.text import one_line
from pitch.server.tables.view_json import game_end_json, refusal_json

MAX_GAMES = 100
"""Games one request may hold (a long session's file; a replay takes about 0.15 ms a
hand, and the hands a client may have checked are counted too: ``hands_in``)."""

MAX_NAME = 64

WAITING_PER_WORKER = 4
"""Checks that may wait for a worker, per worker; past them a check is 503 at once."""

IDLE_SECONDS = 60.0
"""The workers end after this long without a check: each keeps some 55 MiB (its
imports, and what its largest check left), and most servers check records rarely."""

T = TypeVar("T")


class RecordsIn(BaseModel):
    # As the other request bodies (``schemas._In``), here so that a worker need not
    # import the bots that ``schemas`` does.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    records: Annotated[list[Any], Field(min_length=1, max_length=MAX_GAMES)]
    """Game records as read from a file (the engine's record format)."""


class RecordProblem(BaseModel):
    game: int
    hand: int | None
    trick: int | None
    rule: str
    message: str
    seat: int | None = None
    """The seat (from 0) whose bid or card the rules refuse, where that is the problem."""
    refusal: dict[str, Any] | None = None
    """That refusal as data (``{rule, key, args}``, as a ``state``'s ``refusals``)."""


class RecordsChecked(BaseModel):
    records: list[dict[str, Any]]
    """The records that follow the rules, rebuilt by the engine from its replay."""
    problems: list[RecordProblem]
    """Where the others break the rules or the format (the first problem of each)."""


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
    resigned = record.get("resigned")
    if (
        state.winner is None
        and type(resigned) is int  # not a bool, not a float
        and 0 <= resigned < state.rules.players
    ):
        extra["resigned"] = resigned  # the viewer says who resigned, ending the game
    rules = state.rules
    extra["sides"] = [list(seats) for seats in rules.sides]  # the viewer works out no rule
    out = game_record(state, **extra)
    for hand, h in zip(out["hands"], state.history, strict=True):
        for trick, t in zip(hand["tricks"], h.tricks, strict=True):
            # Who played each card, in the engine's play order (R4.2).
            trick["seats"] = list(rules.play_order(t.leader)[: len(t.cards)])
    return out


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


# ------------------------------------------------------------------ in a worker


class BodyError(Exception):
    """A body that is not a :class:`RecordsIn`: ``errors`` as FastAPI's 422 lists them
    (``loc``, ``msg``, ``type``), or None for one that JSON cannot even read (FastAPI's
    400 "There was an error parsing the body": nested too deep, not UTF-8)."""

    def __init__(self, errors: list[dict[str, Any]] | None) -> None:
        super().__init__("invalid body")
        self.errors = errors


def read_body(body: bytes) -> RecordsIn:
    """``body`` read and checked as FastAPI reads a JSON body for a model, with the
    same errors: the answers are the ones the route gave when FastAPI read it."""
    if not body:
        raise BodyError([{"loc": ["body"], "msg": "Field required", "type": "missing"}])
    try:
        data = json.loads(body)
    except json.JSONDecodeError as e:
        raise BodyError(
            [{"loc": ["body", e.pos], "msg": "JSON decode error", "type": "json_invalid"}]
        ) from None
    except (ValueError, RecursionError):
        raise BodyError(None) from None
    try:
        return RecordsIn.model_validate(data, from_attributes=True)  # as FastAPI does
    except ValidationError as e:
        # Only what the 422 shows (``app._invalid``): not the input, which may be 2 MiB.
        raise BodyError(
            [
                {"loc": ["body", *e_["loc"]], "msg": e_["msg"], "type": e_["type"]}
                for e_ in e.errors(include_url=False)[:20]
            ]
        ) from None


def hands_of_body(body: bytes) -> int | BodyError:
    """What checking ``body`` would cost (:func:`hands_in`), or why it is no request."""
    try:
        return hands_in(read_body(body).records)
    except BodyError as e:
        return e


def answer_body(body: bytes, allowance: float) -> tuple[int, bytes | None] | BodyError:
    """``body`` read once: why it is no request, or what checking it costs
    (:func:`hands_in`) and, if that is within ``allowance`` (the hands the client may
    still have checked), the answer, as the JSON bytes FastAPI wrote for the
    :class:`RecordsChecked` the route returned (``None``: over the allowance, not
    replayed)."""
    try:
        records = read_body(body).records
    except BodyError as e:
        return e
    del body  # 2 MiB, while the replay builds its own
    cost = hands_in(records)
    if cost > allowance:
        return cost, None
    good, bad = check_records(records)
    del records
    out = RecordsChecked(records=good, problems=[RecordProblem(**b) for b in bad])
    return cost, _ANSWER.dump_json(out, by_alias=True)


_ANSWER = TypeAdapter(RecordsChecked)
"""What FastAPI writes a returned model with (its ``serialize_json``)."""


def _watch_parent(parent: int) -> None:
    """A worker whose server died (``kill -9``) leaves within a second."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


# ------------------------------------------------------------------ in the server


class RecordChecks:
    """The worker processes that check records, and who may use them: ``workers``
    checks at once, ``WAITING_PER_WORKER`` times as many waiting for one (past them:
    503 ``server_busy`` at once), and one check at a time per client (429). The
    processes start with a check and end ``idle_seconds`` after the last one."""

    def __init__(self, workers: int, idle_seconds: float = IDLE_SECONDS) -> None:
        self.workers = workers
        self.idle_seconds = idle_seconds
        self._idle: asyncio.TimerHandle | None = None
        self.max_waiting = WAITING_PER_WORKER * workers
        self.running = 0
        self.waiting = 0
        self.jobs = 0
        """Jobs given to the workers (one a check: its body is read once)."""
        self._clients: set[str] = set()
        self._free = asyncio.Semaphore(workers)
        self._pool: ProcessPoolExecutor | None = None

    def state(self) -> dict[str, int]:
        return {
            "running": self.running,
            "waiting": self.waiting,
            "workers": self.workers,
            "jobs": self.jobs,
        }

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Hold one of the workers for ``client``'s check, after waiting for it."""
        if client in self._clients:
            raise ServiceError(429, "a record check of yours is still running; wait for it")
        if self.waiting >= self.max_waiting:
            raise ServiceError(503, "the server is checking as many records as it can; try again")
        self._keep()
        self._clients.add(client)
        self.waiting += 1
        waiting = True
        try:
            async with self._free:
                self.waiting -= 1
                waiting = False
                self.running += 1
                try:
                    yield
                finally:
                    self.running -= 1
        finally:
            if waiting:
                self.waiting -= 1
            self._clients.discard(client)
            if self.running == self.waiting == 0 and self._pool is not None:
                self._idle = asyncio.get_running_loop().call_later(self.idle_seconds, self.close)

    async def run(self, job: Callable[..., T], body: bytes, *args: Any) -> T:
        """``job(body, *args)`` in a worker, within :meth:`turn`. A worker that died
        (killed, out of memory) is 503 ``server_busy``, and fresh ones serve the next
        check."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),  # never fork the loop
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        self.jobs += 1
        fut = asyncio.get_running_loop().run_in_executor(self._pool, job, body, *args)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            # The client went away; the job runs on in its worker: keep its place
            # until it ends, so that no more jobs than workers are ever given out.
            with contextlib.suppress(BaseException):
                await fut
            raise
        except BrokenProcessPool:
            self.close()
            raise ServiceError(503, "a record checker stopped; try again") from None

    def _keep(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def close(self) -> None:
        self._keep()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
