"""This process's lease and the tables it may serve (several processes behind a
proxy, docs/deploy.md; the rows are :mod:`pitch.store.ownership`'s).

The lease is renewed every ``ttl / 5`` seconds. The process believes it holds it only
until ``ttl * 0.8`` after the last renewal *was sent*, by its own monotonic clock: a
process that was stopped (SIGSTOP, a long pause) wakes up believing nothing and
writes nothing until a renewal succeeds, and by then a lease that ran out has been
taken anew, with every table let go first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pitch.store import Database
from pitch.store.ownership import Ownership

log = logging.getLogger("pitch.server")

RunDb = Callable[..., Awaitable[Any]]
Owned = Literal["new", "ours", "busy"]
"""``new``: ours, and nobody's before (a copy from its creation is current); ``ours``:
ours now (load it afresh: another process may have changed it); ``busy``: still
another's (try again)."""


async def _call(fn: Callable[..., Awaitable[None]], *args: Any) -> None:
    await fn(*args)


class Lease:
    def __init__(self, db: Database, instance: str, *, ttl: float) -> None:
        self.store = Ownership(db, instance)
        self.instance = instance
        self.ttl = ttl
        self.beat = ttl / 5
        """Seconds between heartbeats: how soon a handoff is answered. The tests make it
        shorter (a long lease that survives a loaded machine, quick handoffs); it stays
        at most ``ttl / 5``."""
        self._valid_until = 0.0
        self.renewed = 0
        self.lost = 0
        """How many times the lease ran out under this process (it took a new one)."""
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._owning: dict[str, asyncio.Future[Owned | None]] = {}

    def acquire(self) -> None:
        sent = time.monotonic()
        self.store.acquire(self.ttl)
        self._valid_until = sent + self.ttl * 0.8

    def valid(self) -> bool:
        """Whether this process may write to its tables now."""
        return time.monotonic() < self._valid_until

    def state(self) -> dict[str, Any]:
        return {
            "held": self.valid(),
            "ttl": self.ttl,
            "valid_for": round(max(0.0, self._valid_until - time.monotonic()), 3),
            "renewed": self.renewed,
            "lost": self.lost,
        }

    def start(
        self,
        *,
        lost: Callable[[], Awaitable[None]],
        regained: Callable[[], Awaitable[None]],
        asked: Callable[[str, str], Awaitable[None]],
    ) -> None:
        """Heartbeat in a thread of its own: renew; on a lost lease have the event loop
        run ``lost`` (let go of every table), take a new lease and run ``regained``
        (resume the tables that are still ours); hand over the tables others ask for.

        A thread, not a task: a renewal must not wait behind the database threads'
        commits or an event loop busy with thousands of sockets, or a process under
        load would lose its lease (and its tables) while it is alive."""
        loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(loop, lost, regained, asked), name="pitch-lease", daemon=True
        )
        self._thread.start()

    async def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            # Joined off the loop: the thread may be waiting for the loop to let go.
            await asyncio.to_thread(self._thread.join, 15)
            self._thread = None

    def _run(
        self,
        loop: asyncio.AbstractEventLoop,
        lost: Callable[[], Awaitable[None]],
        regained: Callable[[], Awaitable[None]],
        asked: Callable[[str, str], Awaitable[None]],
    ) -> None:
        handing: dict[str, concurrent.futures.Future[None]] = {}
        while not self._stop.wait(self.beat):
            try:
                sent = time.monotonic()
                if self.store.renew(self.ttl):
                    self._valid_until = sent + self.ttl * 0.8
                    self.renewed += 1
                else:
                    self._valid_until = 0.0
                    self.lost += 1
                    log.warning("instance %s lost its lease; letting its tables go", self.instance)
                    asyncio.run_coroutine_threadsafe(_call(lost), loop).result(30)
                    self.acquire()
                    log.warning("instance %s took a new lease", self.instance)
                    asyncio.run_coroutine_threadsafe(_call(regained), loop)
                for tid in [t for t, f in handing.items() if f.done()]:
                    del handing[tid]
                for table_id, to in self.store.asked():
                    if table_id not in handing:
                        handing[table_id] = asyncio.run_coroutine_threadsafe(
                            _call(asked, table_id, to), loop
                        )
            except RuntimeError:  # the event loop is closed: the process is stopping
                return
            except Exception:  # the database is away: the lease runs out by itself
                log.exception("heartbeat of instance %s failed", self.instance)

    async def own(self, run_db: RunDb, table_id: str) -> Owned | None:
        """Make ``table_id`` ours: adopted if it has no owner or its owner's lease ran
        out, else asked of its live owner. ``None``: no such table. The seats of a
        table reconnect together: one try per table at a time."""
        if not self.valid():
            return "busy"
        pending = self._owning.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._own(run_db, table_id))
            self._owning[table_id] = pending
            pending.add_done_callback(lambda _f: self._owning.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _own(self, run_db: RunDb, table_id: str) -> Owned | None:
        owner, left, unowned = await run_db(self.store.adopt, table_id)
        if owner is None or owner == self.instance:
            return None if owner is None else "new" if unowned else "ours"
        # A live owner answers at its next heartbeat; a dead one never does, and its
        # lease runs out within ``ttl``: wait for whichever comes first.
        log.info("table %s is %s's: asking for it", table_id, owner)
        await run_db(self.store.ask, table_id)
        deadline = time.monotonic() + self.ttl + 1.0
        while time.monotonic() < deadline:
            await asyncio.sleep(min(max(left + 0.05, 0.05), self.beat))
            owner, left, _ = await run_db(self.store.adopt, table_id)
            if owner is None or owner == self.instance:
                return None if owner is None else "ours"
        return "busy"
