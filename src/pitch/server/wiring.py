"""The table service: the state every table job shares, and the jobs themselves.

It owns the settings, the database and this process's leases, the commit queue,
the bot worker pool and the tables in memory; each job is a collaborator with one
idea: :mod:`lifecycle` (new, found, adopted, let go, evicted tables), :mod:`seats`
(claims), :mod:`quickplay`, :mod:`play` (apply, commit, broadcast), :mod:`scheduler`
(bot moves, timers, hints) and :mod:`connections` (sockets, chat, admission).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pitch.server.botplay.scheduler import Scheduler
from pitch.server.botplay.workers import QUICK_WORKERS, BotPool
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.events import Bus
from pitch.server.lobby.quickplay import QuickSeats
from pitch.server.realtime.connections import Connections
from pitch.server.realtime.sockets import Sockets
from pitch.server.settings import Settings
from pitch.server.tables.commits import GroupCommitter
from pitch.server.tables.events import HandDealt, TableChanged
from pitch.server.tables.lifecycle import Lifecycle
from pitch.server.tables.live import LiveTable
from pitch.server.tables.ownership import Lease
from pitch.server.tables.play import Play
from pitch.server.tables.seats import SeatClaims
from pitch.store import Database, InstanceLease, TableRepo

__all__ = ["ServiceError", "TableService"]

T = TypeVar("T")


class TableService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url)
        self.lease = InstanceLease(self.db, settings.instance)
        self.owners = Lease(self.db, settings.instance, ttl=settings.lease_seconds)
        """The tables this process may serve and write (docs/deploy.md)."""
        try:
            self.lease.acquire()  # InstanceTaken: another live process is this instance
            self.owners.acquire()
        except Exception:
            self.lease.release()
            self.db.close()
            raise
        self.repo = TableRepo(self.db, owner=settings.instance)
        # SQLite has one writer: one thread keeps commits in order without lock waits.
        self._db_pool = ThreadPoolExecutor(1 if self.db.is_sqlite else 4, "pitch-db")
        self.commits = GroupCommitter(self.repo.writer, self._db_pool, inline=self.db.is_sqlite)
        # One more worker for quick jobs: a table of quick bots never waits behind the
        # searches other addresses keep running (issue 43, BotPool).
        self.bots = BotPool(settings.bot_workers, settings.bot_timeout, quick=QUICK_WORKERS)
        self.tables: dict[str, LiveTable] = {}
        """Live tables: played at, joined or claimed at, and ours (count to the cap)."""
        self.cache: OrderedDict[str, LiveTable] = OrderedDict()
        self.records: OrderedDict[str, bytes] = OrderedDict()
        """Finished games' records as sent (``GET /record``), the last few asked for: a
        finished game never changes, and its record is dear to build for a long one."""
        """Tables loaded only to be read (LRU, ``max_cached_tables``)."""
        self.bus = Bus()
        """Upward calls as events: the tables room publishes, the rooms above subscribe."""
        self.lifecycle = Lifecycle(self, self.bus)
        self.seats = SeatClaims(self, self.bus)
        self.quick = QuickSeats(self)
        self.play = Play(self, self.bus)
        self.scheduler = Scheduler(self)
        # In the order the direct calls ran: arrivals take their seats, then the
        # scheduler plans the next move.
        self.bus.subscribe(HandDealt, self.quick.hand_dealt)
        self.bus.subscribe(TableChanged, self.scheduler.table_changed)
        self.conns = Connections(self)
        self.sockets = Sockets(settings.max_sockets)
        """The WebSockets of this process (``pitch serve`` counts them)."""

    async def run_db(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, lambda: fn(*args, **kw))

    async def start(self) -> None:
        """Bring back every unfinished table of this process exactly where it was."""
        life = self.lifecycle
        await life.resume()
        self.bots.warm()
        life.start_sweeping()
        self.owners.start(lost=life.lease_lost, regained=life.resume, asked=life.hand_over)

    async def stop(self) -> None:
        await self.owners.stop()
        self.lifecycle.stop()
        self.bots.close()
        self._db_pool.submit(self.repo.writer.checkpoint)
        self._db_pool.submit(self.repo.writer.close)
        self._db_pool.submit(self.owners.store.release)  # others may adopt at once
        self._db_pool.shutdown(wait=True)
        self.lease.release()
        self.db.close()
