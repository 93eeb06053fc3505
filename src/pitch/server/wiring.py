"""The composition root: it builds the server's rooms bottom-up, subscribes their
events in order, starts and stops them (docs/architecture.md, "The server by room").

:class:`TableService` owns what is the process's, not a room's: the settings, the
database and its thread pool, this process's leases, the commit queue, the bot worker
pool, the socket budget and the cache of finished records. Each room is built with
only what it calls (its slice of the settings as a small frozen dataclass or plain
arguments) and never receives the service: :mod:`~pitch.server.tables.lifecycle`
(new, found, adopted, let go, evicted tables; it owns the directory of tables),
:mod:`~pitch.server.tables.seats` (claims), :mod:`~pitch.server.tables.play` (apply,
commit, broadcast), :mod:`~pitch.server.botplay.scheduler` (bot moves, timers, hints),
:mod:`~pitch.server.realtime.connections` (sockets, chat, admission),
:mod:`~pitch.server.lobby.quickplay`, :mod:`~pitch.server.lobby.rematch` and
:mod:`~pitch.server.ratings` (rates finished games), :mod:`~pitch.server.social`
(friends, blocks, invites, reports) and
:mod:`~pitch.server.analysis` (analyses finished games on its own workers). The API
(``api/deps.py``) reaches them as this object's attributes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pitch.bots.analysis import DEALS
from pitch.server.accounts.service import AccountLimits, Accounts
from pitch.server.analysis.room import Analyses, AnalysisLimits
from pitch.server.botplay.scheduler import Scheduler
from pitch.server.botplay.workers import QUICK_WORKERS, BotPool
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.events import Bus
from pitch.server.lobby.quickplay import QuickSeats
from pitch.server.lobby.rematch import Rematches
from pitch.server.ratings import Ratings, SeatAccounts
from pitch.server.realtime.connections import Connections, SocketLimits
from pitch.server.realtime.sockets import Sockets
from pitch.server.settings import Settings
from pitch.server.social import Social, SocialLimits
from pitch.server.tables.commits import GroupCommitter
from pitch.server.tables.events import GameFinished, HandDealt, TableAdopted, TableChanged
from pitch.server.tables.lifecycle import Lifecycle, TableLimits
from pitch.server.tables.ownership import Lease
from pitch.server.tables.play import Play
from pitch.server.tables.seats import SeatClaims
from pitch.store import Database, InstanceLease, TableRepo
from pitch.store.accounts import AccountStore
from pitch.store.social import SocialStore

__all__ = ["ServiceError", "TableService"]

log = logging.getLogger("pitch.server")

T = TypeVar("T")

seat_accounts: SeatAccounts | None = None
"""Which seats of a table signed-in players hold (the ratings room asks, in the
database's threads). ``None``: the accounts store's reading of ``seats.account_id``;
a test may put its own here before the service is built."""


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
        self.records: OrderedDict[str, bytes] = OrderedDict()
        """Finished games' records as sent (``GET /record``), the last few asked for: a
        finished game never changes, and its record is dear to build for a long one."""
        # The rooms, bottom-up: each gets only what it calls, and nothing above it.
        # Upward calls are events on the bus, subscribed below in the order the
        # direct calls ran (arrivals take their seats, then the next move is planned).
        self.bus = Bus()
        self.lifecycle = Lifecycle(
            self.repo,
            self.run_db,
            self.owners,
            self.bus,
            TableLimits(
                rules=settings.rules,
                max_live_tables=settings.max_live_tables,
                max_cached_tables=settings.max_cached_tables,
                max_open_tables_per_client=settings.max_open_tables_per_client,
                idle_evict_seconds=settings.idle_evict_seconds,
            ),
        )
        self.tables = self.lifecycle.tables
        self.cache = self.lifecycle.cache
        self.seats = SeatClaims(self.repo, self.lifecycle, self.bus)
        self.play = Play(
            self.repo,
            self.run_db,
            self.commits,
            self.owners,
            self.lifecycle,
            self.bus,
            max_hands=settings.max_hands,
        )
        self.scheduler = Scheduler(
            self.tables,
            self.bots,
            self.play,
            hint_bot=settings.hint_bot,
            min_bot_delay=settings.min_bot_delay,
        )
        account_store = AccountStore(self.db)
        self.conns = Connections(
            self.repo,
            self.run_db,
            self.tables,
            self.play,
            self.scheduler,
            SocketLimits(
                max_connections_per_client=settings.max_connections_per_client,
                tables_open_per_client=settings.tables_open_per_client,
                watched_tables_per_client=settings.watched_tables_per_client,
                max_spectators=settings.max_spectators,
                spectators_per_client=settings.spectators_per_client,
            ),
            account_store.seat_accounts,
        )
        self.accounts = Accounts(
            account_store,
            self.run_db,
            secret=self.repo.client_secret(),
            limits=AccountLimits(backoff_seconds=settings.login_backoff_seconds),
        )
        """Optional accounts and their sessions (it calls no other room)."""
        social_limits = SocialLimits(invite_seconds=settings.invite_seconds)
        self.social = Social(
            SocialStore(self.db, social_limits.caps),
            self.repo,
            self.run_db,
            self.accounts.by_name,  # the one name lookup
            social_limits,
        )
        """Friends, blocks, invites and reports (it finds names through the accounts
        room's lookup, handed in)."""
        self.ratings = Ratings(
            self.db,
            self.repo,
            self.run_db,
            seat_accounts or account_store.seat_accounts,
            account_store.seat_networks,
        )
        self.quick = QuickSeats(
            self.repo,
            self.run_db,
            self.lifecycle,
            self.seats,
            self.bus,
            rules=settings.rules,
            bot_delay=settings.quick_bot_delay,
            ratings=self.ratings.store.shown_of,
            blocked=self.social.store.blocked_with,
        )
        self.rematches = Rematches(self.lifecycle, self.seats, self.quick)
        self.analyses = Analyses(
            self.db,
            self.run_db,
            AnalysisLimits(
                workers=settings.analysis_workers,
                queue=settings.analysis_queue,
                max_decisions=settings.analysis_max_decisions,
                deals=DEALS,
                seconds=settings.analysis_seconds,
            ),
        )
        self.bus.subscribe(HandDealt, self.quick.hand_dealt)
        self.bus.subscribe(TableChanged, self.scheduler.table_changed)
        self.bus.subscribe(GameFinished, self.ratings.game_finished)
        self.bus.subscribe(TableAdopted, self.ratings.table_adopted)
        self.sockets = Sockets(settings.max_sockets)
        """The WebSockets of this process (``pitch serve`` counts them)."""

    async def run_db(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, lambda: fn(*args, **kw))

    async def start(self) -> None:
        """Bring back every unfinished table of this process exactly where it was, and
        rate the finished games that no process rated."""
        life = self.lifecycle
        await life.resume()
        try:  # games a stopped process finished and did not rate
            await self.ratings.sweep()
        except Exception:  # the database is away: the next start sweeps
            log.exception("the ratings sweep failed")
        self.bots.warm()
        await self.accounts.hasher.warm()
        life.start_sweeping()
        self.owners.start(lost=life.lease_lost, regained=life.resume, asked=life.hand_over)

    async def stop(self) -> None:
        await self.owners.stop()
        self.lifecycle.stop()
        self.analyses.close()
        self.bots.close()
        self.accounts.close()
        self._db_pool.submit(self.repo.writer.checkpoint)
        self._db_pool.submit(self.repo.writer.close)
        self._db_pool.submit(self.owners.store.release)  # others may adopt at once
        self._db_pool.shutdown(wait=True)
        self.lease.release()
        self.db.close()
