"""The analysis service: jobs on a worker pool of its own, a bounded queue, one job at
a time per client, and the results kept in the database per record.

A job is one game's analysis (:func:`pitch.bots.analysis.analyze`) in a worker process
of this room's own pool (never the bot pool's: a live table's bot never waits for an
analysis; the workers also run at a lower CPU priority). Its progress comes back over a
queue after each decision and is read by a thread that hands it to the event loop. The
result is stored under a hash of the canonical record, the game's index and the
analysis settings (:func:`upload.cache_key`): the second request for the same game is
answered from the store, after a restart too, and by any process of a cluster.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.queues import Queue
from typing import Any

from pitch.bots.analysis import VERSION
from pitch.server.analysis import worker
from pitch.server.analysis.store import AnalysisStore
from pitch.server.analysis.upload import cache_key
from pitch.server.kernel.errors import ServiceError
from pitch.server.tables.store import RunDb
from pitch.store import Database

log = logging.getLogger("pitch.server")

JOBS_KEPT = 256
"""Finished jobs kept for their pollers (their results are in the store anyway)."""
RESULTS_KEPT = 16
"""Stored analyses kept in memory, the last few asked for (each some 50-150 kB)."""
IDLE_SECONDS = 120.0
"""The workers end this long after the last job, giving back their memory."""


@dataclass(frozen=True, slots=True)
class AnalysisLimits:
    workers: int
    """Analyses run at once, one a worker process."""
    queue: int
    """Jobs that may wait for a worker; past them a request is refused (503)."""
    max_decisions: int
    """A game with more decisions is refused (422 ``record_too_long``)."""
    deals: int
    seconds: float
    """The budget of each decision (``pitch.bots.analysis.DEALS`` and ``TIME``)."""


@dataclass(slots=True)
class Job:
    id: str
    key: str
    client: str
    table_id: str | None
    game: int
    total: int
    state: str = "queued"
    """``queued``, ``running``, ``done`` or ``failed``."""
    done: int = 0
    result: bytes | None = None
    error: str | None = None


class Analyses:
    def __init__(self, db: Database, run_db: RunDb, limits: AnalysisLimits) -> None:
        self.store = AnalysisStore(db)
        self.run_db = run_db
        self.limits = limits
        self.settings = f"v{VERSION}:deals={limits.deals}:seconds={limits.seconds:g}:seed=0"
        """What besides the record decides an analysis (part of its key)."""
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._active: dict[str, Job] = {}
        """Unfinished jobs by key: a second request for the same game joins the first."""
        self._clients: set[str] = set()
        self.results: OrderedDict[str, bytes] = OrderedDict()
        self.running = 0
        self.waiting = 0
        self.started = 0
        self.seconds = 0.0
        """Seconds the finished jobs took, all together (for the Retry-After estimate)."""
        self.finished = 0
        self._free = asyncio.Semaphore(limits.workers)
        self._pool: ProcessPoolExecutor | None = None
        self._progress: Queue[Any] | None = None
        self._reader: threading.Thread | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def state(self) -> dict[str, int]:
        return {
            "running": self.running,
            "waiting": self.waiting,
            "workers": self.limits.workers,
            "jobs": self.started,
        }

    def key(self, record: str, game: int) -> str:
        return cache_key(record, game, self.settings)

    async def cached(self, key: str) -> bytes | None:
        hit = self.results.get(key)
        if hit is None:
            hit = await self.run_db(self.store.get, key)
            if hit is None:
                return None
            self._remember(key, hit)
        self.results.move_to_end(key)
        return hit

    def retry_after(self) -> int:
        """Seconds until a place in the queue is likely free (at least 5)."""
        mean = self.seconds / self.finished if self.finished else 30.0
        ahead = (self.waiting + self.running) / self.limits.workers
        return max(5, min(600, math.ceil(mean * max(1.0, ahead))))

    async def submit(
        self,
        client: str,
        record: str,
        decisions: int,
        game: int = 0,
        table_id: str | None = None,
        take: Callable[[], None] | None = None,
    ) -> bytes | Job:
        """The stored analysis of ``record``'s game, or the job making it (a new one,
        or the one already making it). ``take`` spends the client's allowance, and is
        called only when a new job starts."""
        key = self.key(record, game)
        hit = await self.cached(key)
        if hit is not None:
            return hit
        job = self._active.get(key)
        if job is not None:
            return job
        limit = self.limits.max_decisions
        if decisions > limit:
            raise ServiceError(
                422,
                f"a game of {decisions} decisions is too long to analyse (at most {limit})",
                "record_too_long",
                limit=limit,
            )
        if client in self._clients:
            raise ServiceError(
                429,
                "an analysis of yours is still running; wait for it",
                retry_after=self.retry_after(),
            )
        if self.waiting + self.running >= self.limits.queue + self.limits.workers:
            raise ServiceError(
                503,
                "the server is analysing as many games as it can; try again later",
                retry_after=self.retry_after(),
            )
        if take is not None:
            take()
        job = Job(secrets.token_urlsafe(12), key, client, table_id, game, decisions)
        self.jobs[job.id] = job
        self._active[key] = job
        self._clients.add(client)
        self.started += 1
        self.waiting += 1
        self._keep()
        task = asyncio.create_task(self._run(job, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def job(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def place(self, job: Job) -> int:
        """How many queued jobs are ahead of ``job`` (0 once it runs)."""
        if job.state != "queued":
            return 0
        ahead = 0
        for j in self._active.values():
            if j is job:
                break
            ahead += j.state == "queued"
        return ahead

    async def _run(self, job: Job, record: str) -> None:
        waiting = True
        began = time.monotonic()
        try:
            async with self._free:
                self.waiting -= 1
                waiting = False
                self.running += 1
                job.state = "running"
                began = time.monotonic()
                try:
                    job.result = await self._analyse(job, record)
                finally:
                    self.running -= 1
            job.done = job.total
            self._remember(job.key, job.result)
            try:
                await self.run_db(self.store.put, job.key, job.table_id, job.game, job.result)
            except Exception:  # the result still serves this process's pollers
                log.exception("analysis %s could not be stored", job.key[:12])
            job.state = "done"
        except ServiceError as e:
            job.state, job.error = "failed", e.detail
        except Exception as e:
            log.exception("analysis job %s failed", job.id)
            job.state, job.error = "failed", str(e) or type(e).__name__
        finally:
            if waiting:
                self.waiting -= 1
            else:
                self.finished += 1
                self.seconds += time.monotonic() - began
            self._active.pop(job.key, None)
            self._clients.discard(job.client)
            self._trim()
            if self.running == self.waiting == 0 and self._pool is not None:
                loop = asyncio.get_running_loop()
                self._idle = loop.call_later(IDLE_SECONDS, self.close)

    async def _analyse(self, job: Job, record: str) -> bytes:
        pool = self._start()
        lim = self.limits
        fut = asyncio.get_running_loop().run_in_executor(
            pool, worker.run, job.id, record, job.game, lim.deals, lim.seconds
        )
        try:
            return await fut
        except BrokenProcessPool:
            self.close()
            raise ServiceError(503, "an analysis worker stopped; try again") from None

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # never fork the event loop
            q: Queue[Any] = ctx.Queue()
            self._progress = q
            self._pool = ProcessPoolExecutor(
                self.limits.workers,
                mp_context=ctx,
                initializer=worker.start,
                initargs=(os.getpid(), q),
            )
            loop = asyncio.get_running_loop()
            self._reader = threading.Thread(
                target=self._read, args=(q, loop), name="pitch-analysis-progress", daemon=True
            )
            self._reader.start()
        return self._pool

    def _read(self, q: Queue[Any], loop: asyncio.AbstractEventLoop) -> None:
        """In a thread: each worker's progress, handed to the event loop."""
        while True:
            try:
                item = q.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            try:
                loop.call_soon_threadsafe(self._advance, *item)
            except RuntimeError:  # the loop closed
                return

    def _advance(self, job_id: str, done: int, total: int) -> None:
        job = self.jobs.get(job_id)
        if job is not None and job.state == "running":
            job.done, job.total = done, total

    def _remember(self, key: str, result: bytes | None) -> None:
        if result is None:
            return
        self.results[key] = result
        while len(self.results) > RESULTS_KEPT:
            self.results.popitem(last=False)

    def _trim(self) -> None:
        finished = [j for j in self.jobs.values() if j.state in ("done", "failed")]
        for j in finished[: max(0, len(finished) - JOBS_KEPT)]:
            del self.jobs[j.id]

    def _keep(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def close(self) -> None:
        self._keep()
        pool, self._pool = self._pool, None
        q, self._progress = self._progress, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if q is not None:
            q.put(None)  # ends the reader
