"""Table lifecycle: new tables and rematches, finding, adopting and letting go of
tables, restoring them at start-up, and evicting idle ones from memory.

A table is *live* here (``Lifecycle.tables``) once someone plays, joins or claims
at it and this process owns it in the store; tables only read sit in a bounded cache.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from pitch.engine import PitchError, Rules, preset
from pitch.engine.rules import OPTION
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.events import Bus
from pitch.server.kernel.schemas import CreateTable, SeatPlan, TableOptions
from pitch.server.tables.events import TableAdopted, TableChanged
from pitch.server.tables.fanout import broadcast
from pitch.server.tables.live import LiveTable, Seat
from pitch.server.tables.ownership import Lease
from pitch.server.tables.protocol import error
from pitch.server.tables.store import RunDb
from pitch.store import StaleWrite, TableRepo

log = logging.getLogger("pitch.server")

T = TypeVar("T")

_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: codes are read aloud


def new_table_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


ALL_TABLES_FACTOR = 4
"""An address's unfinished tables of the last day, those that wait for nobody (the
quick-play tables it walked away from) included, are capped at this many times
``max_open_tables_per_client``: a newcomer retrying quick play, or a school behind one
address, gets on, and a stranger still cannot store tables without bound."""


def build_rules(req: CreateTable, defaults: Rules) -> Rules:
    """A new table's rules: the server's ``defaults`` (``pitch serve --rule``), then what
    the request's preset changes from the seed rules, then the request's own rules."""
    try:
        base = defaults.to_dict()
        if req.preset:
            seed = Rules()
            base.update(
                (k, v) for k, v in preset(req.preset).to_dict().items() if v != getattr(seed, k)
            )
        base.update(req.rules)
        unknown = set(req.rules) - set(OPTION)  # to_dict leaves out newer options
        if unknown:
            raise ServiceError(
                422, f"unknown rules fields: {', '.join(sorted(unknown))}", "bad_rules"
            )
        return Rules.from_dict(base)
    except PitchError as e:
        raise ServiceError(422, str(e), "bad_rules") from None
    except TypeError as e:
        raise ServiceError(422, f"bad rules: {e}", "bad_rules") from None


def check_rated(rules: Rules, options: TableOptions) -> None:
    """A rated table plays the standard rules (RULES.md as written, any number of
    players, partnerships or not): a rating compares players across tables, and a
    house rule changes the game it measures. Refused with ``rated_rules`` otherwise."""
    if not options.rated:
        return
    standard = Rules(players=rules.players, partnerships=rules.partnerships)
    house = sorted(k for k in OPTION if getattr(rules, k) != getattr(standard, k))
    if house:
        raise ServiceError(
            422,
            "a rated table plays the standard rules; these differ: "
            f"{', '.join(house)} (a table with house rules is casual: unrated)",
            "rated_rules",
            fields=", ".join(house),
        )


def rematch_seats(old: LiveTable, asker: int) -> list[Seat]:
    """The seat plan of ``old``'s rematch, made by the player at seat ``asker``.

    At a quick-play table the players are strangers who may never ask: only the
    asker's seat waits for a person, the other players' are bots again (the bot a
    seat was taken over from, else the table's stand-in), open to quick play as at
    any quick-play table, and each player who asks later takes theirs back from its
    bot. Else nobody waited for ever for a stranger who had gone. Elsewhere the plan
    is the same (a seat a stranger took over from a bot is simply a human's now)."""
    if not old.options.quick:
        return [Seat.fresh(s.kind, s.bot) for s in old.seats]
    stand_in = old.options.substitute or "random"
    return [
        Seat.fresh("human", None)
        if i == asker
        else Seat.fresh("bot", (s.bot or stand_in) if s.kind == "human" else s.bot)
        for i, s in enumerate(old.seats)
    ]


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The settings the directory of tables keeps to (``Settings``' fields)."""

    rules: Rules
    max_live_tables: int
    max_cached_tables: int
    max_open_tables_per_client: int
    idle_evict_seconds: float


class Lifecycle:
    def __init__(
        self, repo: TableRepo, run_db: RunDb, owners: Lease, bus: Bus, limits: TableLimits
    ) -> None:
        self.repo = repo
        self.run_db = run_db
        self.owners = owners
        self.bus = bus
        self.limits = limits
        self.tables: dict[str, LiveTable] = {}
        """Live tables: played at, joined or claimed at, and ours (count to the cap)."""
        self.cache: OrderedDict[str, LiveTable] = OrderedDict()
        """Tables loaded only to be read (LRU, ``max_cached_tables``)."""
        self._cached_at: dict[str, float] = {}
        """When each cached table was read: unfinished ones are read again after 1 s."""
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._reserved = 0
        """Live places promised to tables on their way in (:meth:`_adopt` awaits the
        store before it adds one): they count to the cap, so that concurrent opens
        never take more than it."""
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ start and stop

    async def resume(self) -> None:
        """Bring back every unfinished table of this process exactly where it was."""
        ids = await self.run_db(self.repo.unfinished)
        for tid in ids:
            try:
                stored = await self.run_db(self.repo.load, tid)
            except Exception:  # one table's failed read must not leave the rest unplanned
                log.exception("table %s could not be read; it comes back on first use", tid)
                continue
            if stored is None:
                continue
            if tid not in self.tables and not self._has_room():
                break  # the rest wait in the store and come back on first use
            try:
                t = LiveTable.from_stored(stored)
            except (PitchError, AssertionError) as e:  # a corrupt table must not stop the rest
                log.error("table %s cannot be restored: %s", tid, e)
                continue
            self.tables.setdefault(tid, t)
            await self.bus.publish(TableChanged(self.tables[tid]))
        log.info("restored %d tables", len(self.tables))

    def start_sweeping(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep())

    def stop(self) -> None:
        if self._sweeper:
            self._sweeper.cancel()
        for t in self.tables.values():
            if t.timer:
                t.timer.cancel()

    async def _sweep(self) -> None:
        """Tables nobody is connected to and no bot or timer is waiting on leave memory
        after a while; they stay in the database and come back on first use."""
        while True:
            await asyncio.sleep(30)
            self._evict_idle(time.monotonic(), self.limits.idle_evict_seconds)

    def _has_room(self) -> bool:
        return len(self.tables) + self._reserved < self.limits.max_live_tables

    def make_room(self, *, evict: bool = True) -> None:
        """Room for one more live table, or 503. Tables leave memory to make it (they
        are stored, and come back on first use): first those nobody has open, then
        those only spectators watch (the spectators are told, and come back later).
        Watching costs nothing, and with tables watched that way 157 addresses kept a
        stranger from making or joining any. Only tables where a player is connected
        (or a move is being stored) stay. Without ``evict``, whether room could be
        made, and nothing leaves."""
        if self._has_room():
            return
        if evict:
            self._evict_idle(time.monotonic(), 0.0)
            if not self._has_room():
                self._evict_watched()
            if self._has_room():
                return
        elif any(self._evictable(t) for t in self.tables.values()):
            return
        raise ServiceError(503, "the server is full; try again later", "server_full")

    @staticmethod
    def _evictable(t: LiveTable) -> bool:
        """No player has ``t`` open (a quick-play seat's taker waiting for the hand's
        end counts as one), and no move of it is being stored."""
        return (
            not t.lock.locked()
            and not any(s.conns for s in t.seats)
            and all(c.waiting is None for c in t.spectators)
        )

    def _evict_watched(self) -> None:
        """Take from memory the table watched only by spectators that has the fewest."""
        tables = [t for t in self.tables.values() if self._evictable(t)]
        if not tables:
            return
        t = min(tables, key=lambda x: len(x.spectators))
        log.info("table %s left memory for room (%d spectators)", t.id, len(t.spectators))
        for c in t.spectators:
            c.send(error("server_busy", "the server is full; watch this table again later"))
            c.close(1013)  # try again later
        self.let_go(t)

    def _evict_idle(self, now: float, older_than: float) -> None:
        tables = self.tables
        for tid, t in list(tables.items()):
            if (
                not t.watched()
                and (t.timer is None or t.timer.done())
                and not t.lock.locked()
                and now - t.idle_since >= older_than
            ):
                del tables[tid]

    # ------------------------------------------------------------ new tables

    async def create(self, req: CreateTable, creator: str) -> LiveTable:
        rules = build_rules(req, self.limits.rules)
        check_rated(rules, req.options)
        plan = req.seats or []
        if not plan:
            plan = [SeatPlan() for _ in range(rules.players)]
        if len(plan) != rules.players:
            raise ServiceError(
                422,
                f"R1.1: the seat plan has {len(plan)} seats for {rules.players} players",
                "bad_rules",
            )
        if not any(p.kind == "human" for p in plan):
            raise ServiceError(422, "a table needs at least one human seat", "no_human")
        seats = [Seat.fresh(p.kind, p.bot or "random") for p in plan]
        return await self.create_table(rules, req.options, seats, creator)

    async def create_table(
        self, rules: Rules, options: TableOptions, seats: list[Seat], creator: str
    ) -> LiveTable:
        """A new table for ``creator``, within the server's and the client's limits. It
        is not live yet (``_new_table``): the first claim or socket at it makes room."""
        self.make_room(evict=False)
        await self._may_create(creator)
        first_dealer = secrets.randbelow(rules.players)  # R2.4
        return await self._new_table(rules, options, seats, first_dealer, creator)

    async def _may_create(self, creator: str) -> None:
        """Refuse ``creator`` a new table while it has its most unfinished ones that
        wait for it; or, counting the quick-play tables it walked away from too,
        :data:`ALL_TABLES_FACTOR` times as many (a bound on what one address stores)."""
        n_open, n_all = await self.run_db(self.repo.open_tables_of, creator)
        limit = self.limits.max_open_tables_per_client
        if n_open >= limit or n_all >= limit * ALL_TABLES_FACTOR:
            raise ServiceError(
                429,
                f"you have {n_open} unfinished tables from the last day; finish or leave "
                f"some first (My tables, in the lobby; limit {limit})",
                "too_many_open",
                limit=limit,
            )

    async def _new_table(
        self,
        rules: Rules,
        options: TableOptions,
        seats: list[Seat],
        first_dealer: int,
        creator: str,
        rematch_of: str | None = None,
    ) -> LiveTable:
        tid = new_table_id()
        await self.run_db(
            self.repo.create,
            table_id=tid,
            creator=creator,
            rules=rules.to_dict(),
            options=options.model_dump(),
            first_dealer=first_dealer,
            seats=[(s.kind, s.bot) for s in seats],
            rematch_of=rematch_of,
        )
        t = LiveTable(
            id=tid,
            rules=rules,
            options=options,
            first_dealer=first_dealer,
            seats=seats,
            created_at=datetime.now(UTC),
        )
        # Cached, not live: behind a proxy another process may serve it (the one its
        # id hashes to), and whoever makes it live adopts it first (``_adopt``).
        self.cache[tid] = t
        self._cached_at[tid] = time.monotonic()
        return t

    async def rematch_table(
        self, table_id: str, token: str, creator: str, charge: Callable[[], None]
    ) -> tuple[LiveTable, str, int, str]:
        """The player whose seat ``token`` holds at a finished table plays again: the
        first to ask makes the rematch (same rules, options and seat plan; the deal
        passes to the next seat, R2.4), each asker takes their own seat in it under
        the same name (:mod:`pitch.server.lobby.rematch` seats them). Answer: the
        finished table, the rematch's id, the asker's seat and name."""
        old = await self.find(table_id, live=True)
        async with old.lock:
            seat = next((i for i, s in enumerate(old.seats) if s.has_token(token)), None)
            if seat is None:
                raise ServiceError(403, "no seat at this table is held by that token")
            if old.status != "over":
                raise ServiceError(409, "the game is not over yet", "not_over")
            if old.rematch is None:
                # A table like any other: else asking again after everyone left the last
                # rematch (which deletes it) made and dropped tables without limit.
                charge()
                self.make_room(evict=False)
                await self._may_create(creator)
                seats = rematch_seats(old, seat)
                dealer = (old.first_dealer + 1) % old.rules.players
                try:
                    new = await self._new_table(
                        old.rules, old.options, seats, dealer, creator, rematch_of=old.id
                    )
                except StaleWrite:  # another process made it: read the link back
                    stored = await self.run_db(self.repo.load, old.id)
                    if stored is None or stored.rematch is None:
                        raise ServiceError(409, "try again", "try_again") from None
                    old.rematch = stored.rematch
                else:
                    old.rematch = new.id
                    broadcast(old)  # the others see the rematch offered
            new_id = old.rematch
            name = old.seats[seat].name or f"Player {seat + 1}"
        return old, new_id, seat, name

    # ------------------------------------------------------------ finding tables

    async def find(self, table_id: str, *, live: bool = False) -> LiveTable:
        """The table, from memory or the store. Reads (``live=False``) go through a
        bounded cache and never count as live tables; a table someone joins or claims
        a seat at (``live=True``) becomes live, if the server has room."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if live:
            return await self._adopt(table_id)
        t = self.cache.get(table_id)
        now = time.monotonic()
        before = None
        if t is not None and t.status != "over" and now - self._cached_at.get(table_id, 0) > 1:
            # Another process may be playing it (behind a proxy): read it again, the
            # events after the ones this copy holds (a long game's all would be dear).
            before, t = t, None
        if t is None:
            if len(table_id) > 32:
                raise ServiceError(404, "no such table")
            t = await self._load(table_id, before)
            if t is None:
                raise ServiceError(404, "no such table")
            self._cached_at[table_id] = now
            t = self.tables.get(table_id) or t  # made live while we loaded it
        if table_id not in self.tables:
            self.cache[table_id] = t
            self.cache.move_to_end(table_id)
            while len(self.cache) > self.limits.max_cached_tables:
                self._cached_at.pop(self.cache.popitem(last=False)[0], None)
        return t

    async def _adopt(self, table_id: str) -> LiveTable:
        """Make a table live here: ours in the store first (adopted from a dead owner,
        or handed over by a live one), then loaded afresh, since a cached copy may
        predate another process's moves."""
        if len(table_id) > 32:
            raise ServiceError(404, "no such table")
        self.make_room()
        self._reserved += 1  # until the table is in: the awaits below let others in
        try:
            return await self._adopt_reserved(table_id)
        finally:
            self._reserved -= 1

    async def _adopt_reserved(self, table_id: str) -> LiveTable:
        owned = await self.owners.own(self.run_db, table_id)
        if owned is None:
            raise ServiceError(404, "no such table")
        if owned == "busy":
            raise ServiceError(503, "the table is moving to this server; try again")
        t = self.tables.get(table_id)
        if t is None and owned == "new":
            t = self.cache.get(table_id)  # made here (``_new_table``) and never changed
        if t is None:
            t = await self._load_once(table_id)
        if t is None:
            raise ServiceError(404, "no such table")
        self.cache.pop(table_id, None)
        self._cached_at.pop(table_id, None)
        if self.tables.setdefault(table_id, t) is t:
            await self.bus.publish(TableChanged(t))  # an adopted table's bots and timers go on here
            if owned != "new":
                await self.bus.publish(TableAdopted(t))
        return self.tables[table_id]

    async def _load(self, table_id: str, before: LiveTable | None = None) -> LiveTable | None:
        """One load per table at a time, so two requests never make two copies; with
        ``before`` (a copy read earlier), only the events it does not hold."""
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load_once(table_id, before))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _f: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _load_once(self, table_id: str, before: LiveTable | None = None) -> LiveTable | None:
        since = before.seq if before is not None and before.state is not None else 0
        stored = await self.run_db(self.repo.load, table_id, since)
        if stored is None:
            return None
        try:
            return LiveTable.from_stored(stored, before)
        except (PitchError, AssertionError) as e:
            log.error("table %s cannot be restored: %s", table_id, e)
            return None

    # ------------------------------------------------------------ letting go

    async def write_seats(self, t: LiveTable, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """Store a change of ``t``'s seats (under its lock). Should the database fail
        (other than :class:`StaleWrite`), whether the change landed is unknown: the
        table leaves memory, to be read back on its next use, and the caller is told
        to try again (503) rather than go on from a guess."""
        try:
            return await self.run_db(fn, *args, **kw)
        except StaleWrite:
            raise
        except Exception as e:
            log.exception("a seat change of table %s failed; it is read back on next use", t.id)
            self.let_go(t)
            raise ServiceError(503, "the database failed; try again") from e

    def let_go(self, t: LiveTable) -> None:
        """Forget a table another process serves now (or that left memory for room):
        no more moves from here, and its sockets are closed so that their clients
        reconnect (through the proxy, to the new owner)."""
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        self.cache.pop(t.id, None)
        self._cached_at.pop(t.id, None)
        for c in [*t.spectators, *(c for s in t.seats for c in s.conns)]:
            c.close()

    async def hand_over(self, table_id: str, to: str) -> None:
        """Another live process is asked for this table (the proxy routes it there)."""
        t = self.tables.get(table_id) or self.cache.get(table_id)
        if t is None:
            await self.run_db(self.owners.store.hand_over, table_id, to)
            return
        async with t.lock:  # no commit of ours in flight
            self.let_go(t)
            await self.run_db(self.owners.store.hand_over, table_id, to)
        log.info("table %s handed over to %s", table_id, to)

    async def lease_lost(self) -> None:
        """The lease ran out (this process was stopped, or cut off from the database):
        others may have adopted any table, so every copy in memory goes."""
        for t in list(self.tables.values()):
            self.let_go(t)
        self.cache.clear()

    def abandon(self, t: LiveTable) -> None:
        """Forget a table whose rows :meth:`TableRepo.leave` deleted: no more moves, and
        whoever still watches it is told and let go."""
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        self.tables.pop(t.id, None)
        self.cache.pop(t.id, None)
        self._cached_at.pop(t.id, None)
        for other in (*self.tables.values(), *self.cache.values()):
            if other.rematch == t.id:  # the store cleared the link too (TableRepo.leave)
                other.rematch = None
        for c in list(t.spectators):
            c.send(error("no_table", "the table was abandoned: no player holds a seat"))
            c.close()
        t.spectators.clear()
