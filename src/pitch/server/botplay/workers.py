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
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pitch.bots.explain import Advice
from pitch.bots.heuristic import view_action
from pitch.bots.options import NETWORK, NETWORK_SECONDS
from pitch.bots.registry import frozen_spec, make_bot, parse_bot_spec
from pitch.engine import PlayerView
from pitch.server.botplay.fairqueue import FairQueue

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


def choose(
    spec: str, view: PlayerView, seed: int, advise: bool = False, since: float | None = None
) -> Advice:
    """A fresh bot of ``spec`` picks an action for ``view`` (in a worker), with its own
    figures when ``advise`` (a hint); its time cap counts from ``since`` (when the
    worker took the job, ``time.perf_counter()``; default now). Only the bots offered
    to the network run here (never ``ext:COMMAND``, which would run a command on the
    server: a spec stored before requests were checked could name one)."""
    if parse_bot_spec(spec).name not in NETWORK:
        raise ValueError(
            f"the server runs only the bots it offers ({', '.join(NETWORK)}), not {spec!r}"
        )
    bot = make_bot(spec, rng=random.Random(seed))
    advice = bot.decide(view, since=since)
    return advice if advise else Advice(int(advice.action))


def _worker_main(conn: Connection, parent: int) -> None:
    """A worker's life: warm up, say ready, then answer one job at a time.
    ``parent`` is the server's pid, passed in rather than read here: a server killed
    while this worker was still starting would otherwise leave it watching init."""
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    with contextlib.suppress(Exception):
        _warm()
    conn.send(("ready", None))
    while True:
        try:
            job, spec, view, seed, advise = conn.recv()
        except (EOFError, OSError):
            return
        # The decision's budget runs from here: making the bot counts against it.
        since = time.perf_counter()
        try:
            reply: tuple[str, Any] = ("ok", choose(spec, view, seed, advise, since))
        except Exception as e:  # reported to the server, which plays for the bot
            reply = ("error", f"{type(e).__name__}: {e}")
        conn.send((job, reply))


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
    job: int | None = None
    waiter: asyncio.Future[tuple[str, Any]] | None = None
    expiry: asyncio.TimerHandle | None = None
    """Set while the worker finishes a job nobody waits for (see :meth:`BotPool.run`)."""
    key: str | None = None
    """The client whose work it does (its time counts to that client's turn)."""
    since: float = 0.0
    quick: bool = False
    """Kept for quick jobs (see :class:`BotPool`)."""
    turns: FairQueue[asyncio.Future[_Worker]] | None = None
    """The queue whose turn it serves (its time counts there)."""


class BotFailure(Exception):
    """Why a worker gave no answer (timeout, crash, exception in the bot)."""


QUICK_WORKERS = 1
"""Workers a server keeps for quick jobs, beside ``--bot-workers`` (:class:`BotPool`)."""

QUICK_SECONDS = 0.25
"""A job is quick when its bot decides within this by its options (``random``,
``heuristic``, a search with a ``time`` cap at most this): :class:`BotPool`'s quick
workers serve only such jobs."""


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
    running one is killed).

    Jobs waiting for a worker queue by client (:class:`FairQueue`): one queue per client
    address for all its tables and hints, and a worker that comes free serves the
    client, among those waiting, whose worker time would be least once its next job is
    done (round robin by worker time). A job names the clients it is for (``keys``:
    those with its table open; a hint's asker) and waits in the turn of the one of them
    with the fewest jobs waiting. So clients whose tables ask for long searches back to
    back hold up another's bots only by the jobs already running, not by all they have
    queued; and watching or sitting at someone's table does not put that table's work
    behind one's own.

    Fair turns cannot make a search that is running end sooner: with every worker at a
    flooder's 2 s search, another table's move waits for one of them to finish. A quick
    worker serves only quick jobs (:func:`quick`: bots that answer at once or think at
    most :data:`QUICK_SECONDS`), in turns by client of their own, so such a table's bot
    waits at most for one quick job whatever the others run (a quick job also takes any
    worker that comes free first)."""

    def __init__(self, workers: int, timeout: float, quick: int = 0) -> None:
        self.workers = max(1, workers)
        self.quick = max(0, quick)
        self.timeout = timeout
        self._all: list[_Worker] = []
        self._idle: deque[_Worker] = deque()
        self._idle_quick: deque[_Worker] = deque()
        self._wanted: FairQueue[asyncio.Future[_Worker]] = FairQueue(
            time.monotonic, slack=NETWORK_SECONDS
        )
        """Callers waiting for a worker, by client: one that comes back after a pause
        may be one search (the longest a network bot thinks) behind the others."""
        self._wanted_quick: FairQueue[asyncio.Future[_Worker]] = FairQueue(
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
            self._release(w)
        elif w.expiry is not None and tag == w.job:
            self._release(w)  # the answer to an abandoned job: the worker is free again
        elif w.waiter is not None and tag == w.job and not w.waiter.done():
            w.waiter.set_result(reply)

    def _release(self, w: _Worker) -> None:
        if w.expiry is not None:
            w.expiry.cancel()
        w.job, w.waiter, w.expiry = None, None, None
        self._charge(w)
        turns = self._wanted_quick if w.quick else self._wanted
        while (turn := turns.pop()) is not None:
            key, f = turn
            # Else its caller gave up waiting (and is taking it back), or a quick job
            # was served by the other kind of worker.
            if not f.done():
                w.key, w.turns, w.since = key, turns, turns.start(key)
                f.set_result(w)
                return
        (self._idle_quick if w.quick else self._idle).append(w)

    def _charge(self, w: _Worker) -> None:
        """The worker's time since it was handed out counts to its client's turn."""
        if w.key is not None and w.turns is not None:
            w.turns.finish(w.key, w.since)
        w.key, w.turns = None, None

    def _lost(self, w: _Worker, why: str) -> None:
        """End ``w`` (killed if still running) and start a replacement."""
        if w not in self._all:
            return
        self._all.remove(w)
        with contextlib.suppress(ValueError):
            (self._idle_quick if w.quick else self._idle).remove(w)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(w.conn.fileno())
        if w.waiter is not None and not w.waiter.done():
            w.waiter.set_exception(BotFailure(why))
        if w.expiry is not None:
            w.expiry.cancel()
        self._charge(w)
        _kill(w)
        if not self._closed:
            self._spawn(w.quick)

    def _abandon(self, w: _Worker, job: int, started: float) -> None:
        """Nobody waits for ``w``'s answer to ``job`` any more (its caller was
        cancelled: the turn was replanned, a hint's asker left). Take the worker back
        when it answers; end it only if it is still at the job when the job's bound
        runs out. Killing it at once would cost every table the second or more a fresh
        worker takes to start, and a client could cause that at will (reconnecting)."""
        if w not in self._all or w.job != job:
            return
        if w.waiter is not None and w.waiter.done() and not w.waiter.cancelled():
            self._release(w)  # it had answered just before the caller was cancelled
            return
        loop = asyncio.get_running_loop()
        w.waiter = None
        w.expiry = loop.call_at(started + self.timeout, self._expire, w, job)

    def _expire(self, w: _Worker, job: int) -> None:
        if w.job == job and w.expiry is not None:
            w.expiry = None
            self._lost(w, "an abandoned job ran past its bound")

    async def _acquire(self, keys: Sequence[str], fast: bool = False) -> _Worker:
        if not self._all:
            self.warm()
        f: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        key = self._wanted.push(keys, f)
        # A quick job waits in both turns: the first worker of either kind takes it.
        qkey = self._wanted_quick.push(keys, f) if fast and self.quick else None
        for idle, turns in ((self._idle, self._wanted), (self._idle_quick, self._wanted_quick)):
            while idle and turns:  # a free worker takes the fair turn (this one unless
                w = idle.popleft()  # others wait)
                if w in self._all:
                    self._release(w)

        def leave() -> None:
            self._wanted.remove(key, f)
            if qkey is not None:
                self._wanted_quick.remove(qkey, f)

        try:
            w = await asyncio.wait_for(f, self.timeout)
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
        return w

    # -------------------------------------------------------------- jobs

    async def run(
        self, spec: str, view: PlayerView, advise: bool = False, keys: Sequence[str] = ()
    ) -> Advice:
        """The bot's action for ``view`` (with its figures when ``advise``), from a
        worker, in the turn of one of ``keys`` (the clients the job is for);
        :class:`BotFailure` if it fails, takes longer than ``timeout`` (the worker is
        then killed) or answers an illegal action."""
        if self._closed:
            raise BotFailure("the server is shutting down")
        w = await self._acquire(keys, quick(spec))
        self._jobs += 1
        job = self._jobs
        w.job = job
        loop = asyncio.get_running_loop()
        w.waiter = loop.create_future()
        started = loop.time()
        try:
            w.conn.send((job, spec, for_worker(view), secrets.randbits(64), advise))
            tag, value = await asyncio.wait_for(w.waiter, self.timeout)
        except TimeoutError:
            self._lost(w, "timeout")
            raise BotFailure(f"took longer than {self.timeout:g} s; its worker was ended") from None
        except asyncio.CancelledError:
            self._abandon(w, job, started)
            raise
        except (BotFailure, OSError) as e:
            self._lost(w, str(e))
            raise BotFailure(str(e) or "the bot worker died") from None
        self._release(w)
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
            if w.waiter is not None and not w.waiter.done():
                w.waiter.set_exception(BotFailure("the server is shutting down"))
            _kill(w)
        self._all.clear()
        self._idle.clear()
        self._idle_quick.clear()

    def ready(self) -> int:
        """Workers started and warmed up."""
        return sum(w.ready for w in self._all)

    def waiting(self) -> dict[str, int]:
        """Jobs waiting for a worker, and the clients they wait for (``/api/health``)."""
        return {"jobs": len(self._wanted), "clients": self._wanted.keys_waiting()}


def _kill(w: _Worker) -> None:
    with contextlib.suppress(Exception):
        w.proc.kill()
    with contextlib.suppress(Exception):
        w.proc.join(1.0)  # SIGKILL cannot be ignored: this only reaps it
    with contextlib.suppress(Exception):
        w.conn.close()
