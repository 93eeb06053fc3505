"""Bot moves in worker processes, so that search never blocks the event loop.

Each worker is a process of its own with a pipe to the server; a decision that runs
past its bound is not waited for: the worker is killed and a fresh one started, so a
bad bot costs its own table one decision's bound and other tables nothing. Whatever
goes wrong (an exception, a crashed or dawdling worker, an illegal answer), the table
gets a legal move from the heuristic, played in the server, and the failure is logged
with the table and the spec.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pitch.bots.explain import Advice
from pitch.bots.heuristic import view_action
from pitch.bots.options import NETWORK, NETWORK_SECONDS
from pitch.bots.registry import frozen_spec, make_bot, parse_bot_spec
from pitch.engine import PlayerView
from pitch.fastcore.search import Sliced, drain
from pitch.server.botplay.fairqueue import FairQueue
from pitch.server.botplay.slices import Slices

log = logging.getLogger("pitch.server")


# ------------------------------------------------------------------ in the worker


def _exit_with_parent(parent: int) -> None:
    """A worker whose server died (kill -9 gives it no chance to stop its workers)
    would otherwise live on, holding memory and a compiled search: leave when orphaned."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _warm() -> None:
    import pitch.bots  # noqa: F401  (registers every bot the package ships)
    from pitch import fastcore

    # Compile (first run) or load the search kernels before the first bot move.
    took = fastcore.warm_up()
    if took > 5:
        log.info("bot worker compiled the search kernels in %.1f s", took)


def sliced_choice(
    spec: str, view: PlayerView, seed: int, advise: bool = False, since: float | None = None
) -> Sliced[Advice]:
    """A fresh bot of ``spec`` picks an action for ``view`` (in a worker), in slices
    (:class:`~pitch.server.botplay.slices.Slices`), with its own figures when ``advise``
    (a hint); its time cap counts from ``since`` (when the table asked,
    ``time.perf_counter()``; default now). Only the bots offered to the network run
    here (never ``ext:COMMAND``, which would run a command on the server: a spec stored
    before requests were checked could name one)."""
    if parse_bot_spec(spec).name not in NETWORK:
        raise ValueError(
            f"the server runs only the bots it offers ({', '.join(NETWORK)}), not {spec!r}"
        )
    bot = make_bot(spec, rng=random.Random(seed))
    advice = yield from bot.sliced(view, since=since)
    return advice if advise else Advice(int(advice.action))


def choose(
    spec: str, view: PlayerView, seed: int, advise: bool = False, since: float | None = None
) -> Advice:
    """:func:`sliced_choice` run to the end at once."""
    return drain(sliced_choice(spec, view, seed, advise, since))


def _worker_main(conn: Connection, parent: int) -> None:
    """A worker's life: warm up, say ready, then serve the jobs it is sent, several at
    once in slices (:class:`Slices`), taking new jobs and cancellations between two
    slices. ``parent`` is the server's pid, passed in rather than read here: a server
    killed while this worker was still starting would otherwise leave it watching init."""
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    with contextlib.suppress(Exception):
        _warm()
    conn.send(("ready", None))
    jobs = Slices()
    try:
        while True:
            while not jobs or conn.poll():  # wait only when there is nothing to do
                msg = conn.recv()
                if msg[0] == "cancel":
                    if jobs.drop(msg[1]):
                        conn.send((msg[1], ("cancelled", None)))
                    continue
                _, job, spec, view, seed, advise, age, key = msg
                # The decision's budget runs from when its table asked: the time it
                # waited for a worker, and shares with other jobs, count against it.
                since = time.perf_counter() - age
                jobs.add(job, key, sliced_choice(spec, view, seed, advise, since))
            done = jobs.step()
            if done is not None:
                conn.send(done)
    except (EOFError, OSError):
        return


# ------------------------------------------------------------------ in the server


def for_worker(view: PlayerView) -> PlayerView:
    """What a worker is sent: ``view`` without the finished hands before the last.
    The bots the server runs read no further back (``last_trick``), and a game's whole
    history, pickled for every move, made each move of a long game cost more than the
    last (a game of random bots to 999 need never end)."""
    if len(view.history) <= 1:
        return view
    return dataclasses.replace(view, history=view.history[-1:])


def fallback(view: PlayerView) -> int:
    """The heuristic's legal move (when a bot fails); a random legal one if even that
    fails."""
    try:
        action = view_action(view)
        if (view.legal >> action) & 1:
            return action
    except Exception:
        log.exception("the heuristic failed too; playing a random legal move")
    return secrets.choice(list(view.legal_actions()))


@dataclass(eq=False)
class _Worker:
    proc: BaseProcess
    conn: Connection
    ready: bool = False
    quick: bool = False
    """Kept for quick jobs (see :class:`BotPool`)."""
    jobs: dict[int, _Job] = field(default_factory=dict)
    """The jobs it holds (at most :attr:`BotPool.per_worker`), by number."""


@dataclass(eq=False)
class _Job:
    worker: _Worker
    id: int
    key: str
    """The client whose turn it was given in (its time counts to that client)."""
    turns: FairQueue[asyncio.Future[_Job]]
    """The queue whose turn it was given in."""
    since: float
    waiter: asyncio.Future[tuple[str, Any]] | None = None
    expiry: asyncio.TimerHandle | None = None
    """Set while the worker drops a job nobody waits for (see :meth:`BotPool.run`)."""


class BotFailure(Exception):
    """Why a worker gave no answer (timeout, crash, exception in the bot)."""


QUICK_WORKERS = 1
"""Workers a server keeps for quick jobs, beside ``--bot-workers`` (:class:`BotPool`)."""

QUICK_SECONDS = 0.25
"""A job is quick when its bot decides within this by its options (``random``,
``heuristic``, a search with a ``time`` cap at most this): :class:`BotPool`'s quick
workers serve only such jobs."""


JOBS_PER_WORKER = 32
"""Jobs one worker holds at once, served in slices (:class:`Slices`); more wait for room
in turns by client (:class:`BotPool`). Twenty addresses' two tables each of the costliest
bot, and a table of someone else's, fit in two workers; each held job costs a bot and its
search arrays (kilobytes; a tree that grows with the search it gets). It also bounds what
a worker that stops reading can be sent (a job is about 1 KB pickled, far below a pipe's
buffer), so the server never blocks on sending to one."""


def quick(spec: str) -> bool:
    """Whether a job of ``spec`` is quick (:data:`QUICK_SECONDS`). A hint is judged by
    its bot like a move (its figures cost no more search): the strongest level's hint
    is not quick, a heuristic hint is, and waits for no search (a fresh run of the web
    tests, whose hints are the heuristic's, had one wait over 15 s behind searches)."""
    try:
        parsed = parse_bot_spec(spec)
    except ValueError:
        return False
    allowed = NETWORK.get(parsed.name)
    if allowed is None:
        return False
    if "time" not in allowed:
        return True  # a bot that does not search: it answers at once
    cap = parse_bot_spec(frozen_spec(spec)).options.get("time")
    return isinstance(cap, int | float) and cap <= QUICK_SECONDS


class BotPool:
    """``workers`` processes, and ``quick`` more kept for quick jobs; a job may run
    ``timeout`` seconds and wait as long for a worker, after which it fails (and a
    worker that holds it and does not answer is killed).

    A worker holds up to ``per_worker`` jobs at once (:data:`JOBS_PER_WORKER`) and
    serves them in slices (:class:`Slices`: a batch of one search, then of another,
    clients in turn); each decision stops at its own deadline, counted from when its
    table asked. So a table whose bot thinks a second gets its move a second after it
    asked however many searches other clients run (with fewer rollouts on a busy
    worker), where a worker that ran one search at a time made it wait for the 2 s
    searches running (a running search cannot end sooner).

    A job goes to the worker of its kind holding the fewest; jobs that find no room
    queue by client (:class:`FairQueue`): one queue per client address for all its
    tables and hints, and room that comes free serves the client, among those
    waiting, whose worker time would be least once its next job is done. A job names
    the clients it is for (``keys``: those with its table open; a hint's asker) and
    waits in the turn of the one of them with the fewest jobs waiting, so watching or
    sitting at someone's table does not put that table's work behind one's own.

    The quick workers serve only quick jobs (:func:`quick`: bots that answer at once or
    think at most :data:`QUICK_SECONDS`), which then share a worker with no search
    (a quick job also takes room on a search worker when a quick worker has none)."""

    def __init__(
        self, workers: int, timeout: float, quick: int = 0, per_worker: int = JOBS_PER_WORKER
    ) -> None:
        self.workers = max(1, workers)
        self.quick = max(0, quick)
        self.timeout = timeout
        self.per_worker = max(1, per_worker)
        """Jobs a worker holds at once (:data:`JOBS_PER_WORKER`)."""
        self._all: list[_Worker] = []
        self._wanted: FairQueue[asyncio.Future[_Job]] = FairQueue(
            time.monotonic, slack=NETWORK_SECONDS
        )
        """Callers waiting for room on a worker, by client: one that comes back after a
        pause may be one search (the longest a network bot thinks) behind the others."""
        self._wanted_quick: FairQueue[asyncio.Future[_Job]] = FairQueue(
            time.monotonic, slack=QUICK_SECONDS
        )
        """The quick jobs among them, in turns of their own for the quick workers."""
        self._jobs = 0
        self._closed = False
        self._ctx = multiprocessing.get_context("spawn")
        # spawn, not fork: forking a process that runs an event loop and database
        # threads copies locks in unknown states.

    # -------------------------------------------------------------- workers

    def warm(self) -> None:
        """Start the workers now, so that the first bot move does not wait for them."""
        for kind, wanted in ((False, self.workers), (True, self.quick)):
            while sum(w.quick == kind for w in self._all) < wanted and not self._closed:
                self._spawn(kind)

    def _spawn(self, quick: bool = False) -> None:
        parent_end, child_end = self._ctx.Pipe()
        proc = self._ctx.Process(
            target=_worker_main, args=(child_end, os.getpid()), daemon=True, name="pitch-bot"
        )
        proc.start()
        child_end.close()
        w = _Worker(proc, parent_end, quick=quick)
        self._all.append(w)
        asyncio.get_running_loop().add_reader(parent_end.fileno(), self._readable, w)

    def _readable(self, w: _Worker) -> None:
        try:
            msg = w.conn.recv()
        except (EOFError, OSError):
            self._lost(w, "the bot worker died")
            return
        tag, reply = msg
        if tag == "ready":
            w.ready = True
            self._dispatch()
            return
        j = w.jobs.get(tag)
        if j is None:
            return  # a job already given up and taken back
        if j.expiry is not None:
            self._release(j)  # an abandoned job dropped (or answered): its room is free
        elif j.waiter is not None and not j.waiter.done():
            j.waiter.set_result(reply)

    def _room(self, quick: bool) -> _Worker | None:
        """The ready worker of the kind with the fewest jobs, if it has room."""
        best: _Worker | None = None
        for w in self._all:
            if w.quick == quick and w.ready and (best is None or len(w.jobs) < len(best.jobs)):
                best = w
        return best if best is not None and len(best.jobs) < self.per_worker else None

    def _dispatch(self) -> None:
        """Give waiting jobs the room there is, in fair turns: quick jobs to the quick
        workers first, then every job to the others."""
        for kind, turns in ((True, self._wanted_quick), (False, self._wanted)):
            while turns and (w := self._room(kind)) is not None:
                turn = turns.pop()
                if turn is None:
                    break
                key, f = turn
                # Else its caller gave up waiting (and is taking it back), or a quick
                # job was served by the other kind of worker.
                if not f.done():
                    self._jobs += 1
                    j = _Job(w, self._jobs, key, turns, turns.start(key))
                    w.jobs[j.id] = j
                    f.set_result(j)

    def _release(self, j: _Job) -> None:
        """``j`` leaves its worker: its time counts to its client's turn, and its room
        goes to the next job waiting."""
        if j.worker.jobs.pop(j.id, None) is None:
            return
        if j.expiry is not None:
            j.expiry.cancel()
            j.expiry = None
        j.turns.finish(j.key, j.since)
        self._dispatch()

    def _lost(self, w: _Worker, why: str) -> None:
        """End ``w`` (killed if still running), fail the jobs it held, and start a
        replacement."""
        if w not in self._all:
            return
        self._all.remove(w)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(w.conn.fileno())
        jobs, w.jobs = list(w.jobs.values()), {}
        for j in jobs:
            if j.waiter is not None and not j.waiter.done():
                j.waiter.set_exception(BotFailure(why))
            if j.expiry is not None:
                j.expiry.cancel()
            j.turns.finish(j.key, j.since)
        _kill(w)
        if not self._closed:
            self._spawn(w.quick)
        self._dispatch()

    def _abandon(self, j: _Job, started: float) -> None:
        """Nobody waits for ``j``'s answer any more (its caller was cancelled: the turn
        was replanned, a hint's asker left). The worker is told to drop it, and its room
        is free once the worker says so (between two slices); the worker is ended only
        if it has not by the job's bound. Killing it at once would cost its other jobs
        and every table the second or more a fresh worker takes to start, and a client
        could cause that at will (reconnecting)."""
        w = j.worker
        if w not in self._all or j.id not in w.jobs:
            return
        if j.waiter is not None and j.waiter.done() and not j.waiter.cancelled():
            self._release(j)  # it had answered just before the caller was cancelled
            return
        j.waiter = None
        j.expiry = asyncio.get_running_loop().call_at(started + self.timeout, self._expire, j)
        try:
            w.conn.send(("cancel", j.id))
        except OSError:
            self._lost(w, "the bot worker died")

    def _expire(self, j: _Job) -> None:
        if j.expiry is not None and j.worker.jobs.get(j.id) is j:
            j.expiry = None
            self._lost(j.worker, "an abandoned job ran past its bound")

    async def _acquire(self, keys: Sequence[str], fast: bool = False) -> _Job:
        if not self._all:
            self.warm()
        f: asyncio.Future[_Job] = asyncio.get_running_loop().create_future()
        key = self._wanted.push(keys, f)
        # A quick job waits in both turns: the first worker of either kind takes it.
        qkey = self._wanted_quick.push(keys, f) if fast and self.quick else None
        self._dispatch()  # room there is goes in fair turns (this one unless others wait)

        def leave() -> None:
            self._wanted.remove(key, f)
            if qkey is not None:
                self._wanted_quick.remove(qkey, f)

        try:
            j = await asyncio.wait_for(f, self.timeout)
        except TimeoutError:
            leave()
            if f.done() and not f.cancelled():  # handed over as the time ran out (3.12+)
                self._release(f.result())
            raise BotFailure(f"no bot worker was free within {self.timeout:g} s") from None
        except asyncio.CancelledError:
            # The turn was replanned (a human acted, the table was let go) or the hint's
            # asker left: the job leaves the queue now, not when its turn comes.
            leave()
            if f.done() and not f.cancelled():
                self._release(f.result())  # it was handed over just as we gave up
            raise
        leave()  # out of the other kind's turns too
        return j

    # -------------------------------------------------------------- jobs

    async def run(
        self, spec: str, view: PlayerView, advise: bool = False, keys: Sequence[str] = ()
    ) -> Advice:
        """The bot's action for ``view`` (with its figures when ``advise``), from a
        worker, in the turn of one of ``keys`` (the clients the job is for); the bot's
        time cap counts from this call. :class:`BotFailure` if it fails, takes longer
        than ``timeout`` (the worker is then killed) or answers an illegal action."""
        if self._closed:
            raise BotFailure("the server is shutting down")
        loop = asyncio.get_running_loop()
        asked = loop.time()
        j = await self._acquire(keys, quick(spec))
        w = j.worker
        j.waiter = loop.create_future()
        started = loop.time()
        try:
            age = started - asked
            w.conn.send(
                ("job", j.id, spec, for_worker(view), secrets.randbits(64), advise, age, j.key)
            )
            tag, value = await asyncio.wait_for(j.waiter, self.timeout)
        except TimeoutError:
            self._lost(w, "timeout")
            raise BotFailure(f"took longer than {self.timeout:g} s; its worker was ended") from None
        except asyncio.CancelledError:
            self._abandon(j, started)
            raise
        except (BotFailure, OSError) as e:
            self._lost(w, str(e))
            raise BotFailure(str(e) or "the bot worker died") from None
        self._release(j)
        if tag != "ok":
            raise BotFailure(str(value))
        if not isinstance(value, Advice) or not (view.legal >> value.action) & 1:
            raise BotFailure(f"chose an illegal action {value!r}")
        return value

    async def suggest(
        self,
        spec: str,
        view: PlayerView,
        table: str = "",
        advise: bool = False,
        keys: Sequence[str] = (),
    ) -> Advice | None:
        """The bot's legal action for ``view``, or ``None`` if it fails (logged)."""
        try:
            return await self.run(spec, view, advise, keys)
        except BotFailure as e:
            log.warning("bot %s at table %s failed: %s", spec, table or "-", e)
            return None

    async def choose(
        self, spec: str, view: PlayerView, table: str = "", keys: Sequence[str] = ()
    ) -> int:
        """The bot's action, or the heuristic's if the bot fails."""
        advice = await self.suggest(spec, view, table, keys=keys)
        if advice is None:
            log.warning("the heuristic played for bot %s at table %s", spec, table or "-")
            return fallback(view)
        return advice.action

    def close(self) -> None:
        """End every worker now (a running search is not waited for)."""
        self._closed = True
        for f in [*self._wanted.drain(), *self._wanted_quick.drain()]:
            if not f.done():
                f.cancel()
        for w in list(self._all):
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(w.conn.fileno())
            for j in w.jobs.values():
                if j.waiter is not None and not j.waiter.done():
                    j.waiter.set_exception(BotFailure("the server is shutting down"))
                if j.expiry is not None:
                    j.expiry.cancel()
            w.jobs.clear()
            _kill(w)
        self._all.clear()

    def ready(self) -> int:
        """Workers started and warmed up."""
        return sum(w.ready for w in self._all)

    def waiting(self) -> dict[str, int]:
        """Jobs waiting for room on a worker, and the clients they wait for
        (``/api/health``)."""
        return {"jobs": len(self._wanted), "clients": self._wanted.keys_waiting()}


def _kill(w: _Worker) -> None:
    with contextlib.suppress(Exception):
        w.proc.kill()
    with contextlib.suppress(Exception):
        w.proc.join(1.0)  # SIGKILL cannot be ignored: this only reaps it
    with contextlib.suppress(Exception):
        w.conn.close()
