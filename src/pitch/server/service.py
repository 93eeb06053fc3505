"""The table service: creates tables, seats players, applies actions, drives bots.

Every change to a table happens under that table's lock, in this order: the engine
validates and applies the action; the event is committed to the database; only then
is anyone told. If the commit fails the table is rebuilt from the database, so
memory never runs ahead of what is stored.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypeVar

from pitch.bots.explain import explain
from pitch.engine import (
    TERMINAL,
    ActionParseError,
    GameState,
    IllegalActionError,
    PitchError,
    PlayerView,
    Rules,
    action_str,
    game_record,
    parse_action,
    preset,
)
from pitch.engine.rules import OPTION
from pitch.server.bots import BotPool, fallback
from pitch.server.chat import MAX_LINES, clean_text
from pitch.server.commits import GroupCommitter
from pitch.server.live import Conn, LiveTable, Seat, chat_message, deal_if_needed, hash_token
from pitch.server.ownership import Lease
from pitch.server.protocol import Act, Auth, Chat, Hint, Ping, Spectate, Sync, error
from pitch.server.quickplay import QuickSeats, is_open
from pitch.server.schemas import CreateTable, LeftTable, SeatInfo, SeatPlan, TableOptions
from pitch.server.settings import Settings
from pitch.server.view_json import StateTexts
from pitch.store import Append, ChatRow, Database, EventRow, InstanceLease, StaleWrite, TableRepo

log = logging.getLogger("pitch.server")
T = TypeVar("T")

_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: codes are read aloud


class ServiceError(Exception):
    """A request the service refuses: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def new_table_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


def build_rules(req: CreateTable) -> Rules:
    try:
        base = preset(req.preset).to_dict() if req.preset else {}
        base.update(req.rules)
        unknown = set(req.rules) - set(OPTION)  # to_dict leaves out newer options
        if unknown:
            raise ServiceError(422, f"unknown rules fields: {', '.join(sorted(unknown))}")
        return Rules.from_dict(base)
    except PitchError as e:
        raise ServiceError(422, str(e)) from None
    except TypeError as e:
        raise ServiceError(422, f"bad rules: {e}") from None


@functools.lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> dict[str, Any]:
    """A table's rules as sent in every ``state`` (read-only: shared between tables)."""
    return rules.to_dict()


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
        self.bots = BotPool(settings.bot_workers, settings.bot_timeout)
        self.tables: dict[str, LiveTable] = {}
        """Live tables: played at, joined or claimed at, and ours (count to the cap)."""
        self.cache: OrderedDict[str, LiveTable] = OrderedDict()
        """Tables loaded only to be read (LRU, ``max_cached_tables``)."""
        self._cached_at: dict[str, float] = {}
        """When each cached table was read: unfinished ones are read again after 1 s."""
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.conns_by_client: dict[str, int] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.quick = QuickSeats(self)

    # ------------------------------------------------------------ lifecycle

    async def run_db(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, lambda: fn(*args, **kw))

    async def start(self) -> None:
        """Bring back every unfinished table of this process exactly where it was."""
        await self._resume()
        self.bots.warm()
        self._sweeper = asyncio.create_task(self._sweep())
        self.owners.start(lost=self._lease_lost, regained=self._resume, asked=self._hand_over)

    async def _resume(self) -> None:
        ids = await self.run_db(self.repo.unfinished)
        for tid in ids:
            stored = await self.run_db(self.repo.load, tid)
            if stored is None:
                continue
            try:
                t = LiveTable.from_stored(stored)
            except (PitchError, AssertionError) as e:  # a corrupt table must not stop the rest
                log.error("table %s cannot be restored: %s", tid, e)
                continue
            self.tables.setdefault(tid, t)
            self._schedule(self.tables[tid])
        log.info("restored %d tables", len(self.tables))

    async def stop(self) -> None:
        await self.owners.stop()
        if self._sweeper:
            self._sweeper.cancel()
        for t in self.tables.values():
            if t.timer:
                t.timer.cancel()
        self.bots.close()
        self._db_pool.submit(self.repo.writer.checkpoint)
        self._db_pool.submit(self.repo.writer.close)
        self._db_pool.submit(self.owners.store.release)  # others may adopt at once
        self._db_pool.shutdown(wait=True)
        self.lease.release()
        self.db.close()

    async def _sweep(self) -> None:
        """Tables nobody is connected to and no bot or timer is waiting on leave memory
        after a while; they stay in the database and come back on first use."""
        while True:
            await asyncio.sleep(30)
            self._evict_idle(time.monotonic(), self.settings.idle_evict_seconds)

    def _make_room(self) -> None:
        """Room for one more live table: idle ones leave memory first (they come back
        from the store); 503 if every live table is in use."""
        if len(self.tables) >= self.settings.max_live_tables:
            self._evict_idle(time.monotonic(), 0.0)
        if len(self.tables) >= self.settings.max_live_tables:
            raise ServiceError(503, "the server is full; try again later")

    def _evict_idle(self, now: float, older_than: float) -> None:
        for tid, t in list(self.tables.items()):
            if (
                not t.spectators
                and not any(s.conns for s in t.seats)
                and (t.timer is None or t.timer.done())
                and not t.lock.locked()
                and now - t.idle_since >= older_than
            ):
                del self.tables[tid]

    # ------------------------------------------------------------ HTTP side

    async def create(self, req: CreateTable, creator: str) -> LiveTable:
        rules = build_rules(req)
        plan = req.seats or []
        if not plan:
            plan = [SeatPlan() for _ in range(rules.players)]
        if len(plan) != rules.players:
            raise ServiceError(
                422, f"R1.1: the seat plan has {len(plan)} seats for {rules.players} players"
            )
        if not any(p.kind == "human" for p in plan):
            raise ServiceError(422, "a table needs at least one human seat")
        seats = [
            Seat(kind=p.kind, bot=(p.bot or "random") if p.kind == "bot" else None) for p in plan
        ]
        return await self.create_table(rules, req.options, seats, creator)

    async def create_table(
        self, rules: Rules, options: TableOptions, seats: list[Seat], creator: str
    ) -> LiveTable:
        """A new table for ``creator``, within the server's and the client's limits."""
        self._make_room()
        n_open = await self.run_db(self.repo.open_tables_of, creator)
        if n_open >= self.settings.max_open_tables_per_client:
            raise ServiceError(
                429,
                f"you have {n_open} unfinished tables from the last day; finish or leave "
                f"some first (My tables, in the lobby; limit "
                f"{self.settings.max_open_tables_per_client})",
            )
        first_dealer = secrets.randbelow(rules.players)  # R2.4
        return await self._new_table(rules, options, seats, first_dealer, creator)

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

    async def rematch(self, table_id: str, token: str, creator: str) -> tuple[str, int, str]:
        try:
            return await self._rematch(table_id, token, creator)
        except ServiceError as e:
            old = self.tables.get(table_id) or self.cache.get(table_id)
            if e.status != 404 or old is None or old.rematch is None:
                raise
            old.rematch = None  # its players all left it, and it was deleted: again
            return await self._rematch(table_id, token, creator)

    async def _rematch(self, table_id: str, token: str, creator: str) -> tuple[str, int, str]:
        """The player whose seat ``token`` holds at a finished table plays again: the
        first to ask makes the rematch (same rules, options and seat plan; the deal
        passes to the next seat, R2.4), each asker takes their own seat in it under
        the same name. Answer: the rematch's id, the seat, the new seat token."""
        old = await self.find(table_id, live=True)
        async with old.lock:
            seat = next((i for i, s in enumerate(old.seats) if s.has_token(token)), None)
            if seat is None:
                raise ServiceError(403, "no seat at this table is held by that token")
            if old.status != "over":
                raise ServiceError(409, "the game is not over yet")
            if old.rematch is None:
                self._make_room()
                # A seat a stranger took over from a quick-play bot is simply theirs now.
                seats = [
                    Seat(kind=s.kind, bot=s.bot if s.kind == "bot" else None) for s in old.seats
                ]
                dealer = (old.first_dealer + 1) % old.rules.players
                try:
                    new = await self._new_table(
                        old.rules, old.options, seats, dealer, creator, rematch_of=old.id
                    )
                except StaleWrite:  # another process made it: read the link back
                    stored = await self.run_db(self.repo.load, old.id)
                    if stored is None or stored.rematch is None:
                        raise ServiceError(409, "try again") from None
                    old.rematch = stored.rematch
                else:
                    old.rematch = new.id
                    self._broadcast(old)  # the others see the rematch offered
            new_id = old.rematch
            name = old.seats[seat].name or f"Player {seat + 1}"
        return new_id, seat, await self.claim(new_id, seat, name)

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
        if t is not None and t.status != "over" and now - self._cached_at.get(table_id, 0) > 1:
            t = None  # another process may be playing it (behind a proxy): read it again
        if t is None:
            if len(table_id) > 32:
                raise ServiceError(404, "no such table")
            t = await self._load(table_id)
            if t is None:
                raise ServiceError(404, "no such table")
            self._cached_at[table_id] = now
            t = self.tables.get(table_id) or t  # made live while we loaded it
        if table_id not in self.tables:
            self.cache[table_id] = t
            self.cache.move_to_end(table_id)
            while len(self.cache) > self.settings.max_cached_tables:
                self._cached_at.pop(self.cache.popitem(last=False)[0], None)
        return t

    async def _adopt(self, table_id: str) -> LiveTable:
        """Make a table live here: ours in the store first (adopted from a dead owner,
        or handed over by a live one), then loaded afresh, since a cached copy may
        predate another process's moves."""
        if len(table_id) > 32:
            raise ServiceError(404, "no such table")
        self._make_room()
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
        if self.tables.setdefault(table_id, t) is t:
            self._schedule(t)  # an adopted table's bots and timers go on here
        return self.tables[table_id]

    def _let_go(self, t: LiveTable) -> None:
        """Forget a table another process serves now: no more moves from here, and
        its sockets are closed so that their clients reconnect (through the proxy,
        to the new owner)."""
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        self.cache.pop(t.id, None)
        for c in [*t.spectators, *(c for s in t.seats for c in s.conns)]:
            c.close()

    async def _hand_over(self, table_id: str, to: str) -> None:
        """Another live process is asked for this table (the proxy routes it there)."""
        t = self.tables.get(table_id) or self.cache.get(table_id)
        if t is None:
            await self.run_db(self.owners.store.hand_over, table_id, to)
            return
        async with t.lock:  # no commit of ours in flight
            self._let_go(t)
            await self.run_db(self.owners.store.hand_over, table_id, to)
        log.info("table %s handed over to %s", table_id, to)

    async def _lease_lost(self) -> None:
        """The lease ran out (this process was stopped, or cut off from the database):
        others may have adopted any table, so every copy in memory goes."""
        for t in list(self.tables.values()):
            self._let_go(t)
        self.cache.clear()

    async def _load(self, table_id: str) -> LiveTable | None:
        """One load per table at a time, so two requests never make two copies."""
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load_once(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _f: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _load_once(self, table_id: str) -> LiveTable | None:
        stored = await self.run_db(self.repo.load, table_id)
        if stored is None:
            return None
        try:
            return LiveTable.from_stored(stored)
        except (PitchError, AssertionError) as e:
            log.error("table %s cannot be restored: %s", table_id, e)
            return None

    async def claim(self, table_id: str, seat: int, name: str) -> str:
        t = await self.find(table_id, live=True)
        if not 0 <= seat < len(t.seats):
            raise ServiceError(404, f"R1.3: seats are 0..{len(t.seats) - 1}")
        async with t.lock:
            s = t.seats[seat]
            if s.kind != "human":
                raise ServiceError(409, f"seat {seat} is a bot's")
            if s.token_hash is not None:
                raise ServiceError(409, f"seat {seat} is taken")
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            last = all(x.claimed or x is s for x in t.seats)
            start: EventRow | None = None
            # The game (if this seat completes the table) is built aside and becomes
            # visible only once stored: a broadcast meanwhile must not show it.
            state: GameState | None = None
            if last:
                state = GameState(t.rules, dealer=t.first_dealer)
                start = deal_if_needed(state)
            try:
                await self.run_db(
                    self.repo.claim, t.id, seat, name=name, token_hash=th, start=start
                )
            except StaleWrite:
                raise ServiceError(409, f"seat {seat} is taken") from None
            s.name, s.token_hash = name, th
            s.away_since = time.monotonic()
            if state is not None:
                t.state, t.seq, t.status = state, 1, "playing"
                t.turn_started = time.monotonic()
            self._broadcast(t)
            self._schedule(t)
            return token

    async def leave_seat(self, table_id: str, token: str, client: str) -> LeftTable:
        """The player whose seat ``token`` holds leaves the table: at a table still
        waiting for players the seat is open again; in a game under way they resign and
        the table's ``substitute`` bot plays the seat for good. Either way the table
        stops counting to ``client``'s unfinished tables if ``client`` created it. A
        table where no player holds a seat any more is abandoned: deleted."""
        t = await self.find(table_id, live=True)
        async with t.lock:
            seat = next((i for i, s in enumerate(t.seats) if s.has_token(token)), None)
            if seat is None:
                raise ServiceError(403, "no seat at this table is held by that token")
            if t.status == "over":
                raise ServiceError(409, "the game is over: there is no seat to leave")
            s = t.seats[seat]
            if s.pending:  # a quick-play claim that has not begun: simply withdrawn
                await self.quick.drop(t, seat)
                self._broadcast(t)
                return LeftTable(table=t.id, seat=seat, left="freed", status="playing")
            resign = t.status == "playing"
            bot = t.options.substitute if resign else None
            assert s.token_hash is not None
            try:
                abandoned = await self.run_db(
                    self.repo.leave, t.id, seat, token_hash=s.token_hash, client=client, bot=bot
                )
            except StaleWrite:
                raise ServiceError(409, f"seat {seat} changed meanwhile; try again") from None
            for c in list(s.conns):  # the player's other pages watch from now on
                if c.hint_task is not None:
                    c.hint_task.cancel()
                c.seat, c.spectator = None, True
                t.spectators.add(c)
            s.conns.clear()
            s.token_hash, s.away_since = None, None
            if resign:
                s.kind, s.bot = "bot", bot
            else:
                s.name = None
            if abandoned:
                self._abandon(t)
            else:
                t.idle_since = time.monotonic()
                self._broadcast(t)
                self._schedule(t)
        status = "abandoned" if abandoned else t.status
        return LeftTable(
            table=t.id,
            seat=seat,
            left="resigned" if resign else "freed",
            status=status,  # type: ignore[arg-type]
        )

    def _abandon(self, t: LiveTable) -> None:
        """Forget a table whose rows :meth:`TableRepo.leave` deleted: no more moves, and
        whoever still watches it is told and let go."""
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        self.tables.pop(t.id, None)
        self.cache.pop(t.id, None)
        for other in (*self.tables.values(), *self.cache.values()):
            if other.rematch == t.id:  # the store cleared the link too (TableRepo.leave)
                other.rematch = None
        for c in list(t.spectators):
            c.send(error("no_table", "the table was abandoned: no player holds a seat"))
            c.close()
        t.spectators.clear()

    def seat_infos(self, t: LiveTable) -> list[SeatInfo]:
        return [
            SeatInfo(
                seat=i,
                kind=s.kind,
                bot=s.bot,
                name=None if s.pending else s.name,
                claimed=s.claimed,
                connected=bool(s.conns) if s.kind == "human" else True,
                substituted=t.substituted(i),
                open=is_open(t, s),
                arriving=s.name if s.pending else None,
            )
            for i, s in enumerate(t.seats)
        ]

    def record(self, t: LiveTable) -> dict[str, Any]:
        if t.state is None or t.status != "over":
            raise ServiceError(409, "the game is not over yet")
        return game_record(t.state, table=t.id, players=t.names())

    # ------------------------------------------------------------ socket side

    def texts(self, t: LiveTable) -> StateTexts:
        """The table's ``state`` messages as of now (one per seat, on demand)."""
        top = {
            "type": "state",
            "table": t.id,
            "seq": t.seq,
            "status": t.status,
            "seats": self.seats_json(t),
            "rules": _rules_json(t.rules),
            "last": self._last_json(t),
            "turn_deadline": t.turn_deadline,
            "rematch": t.rematch,
        }
        return StateTexts(top, t.state)

    def message(self, t: LiveTable, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for one seat (``None``: the public view)."""
        return dict(json.loads(self.texts(t).text(seat)))

    def seats_json(self, t: LiveTable) -> list[dict[str, Any]]:
        # Plain dicts: this runs on every broadcast (SeatInfo documents the same shape).
        return [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": None if s.pending else s.name,
                "claimed": s.claimed,
                "connected": bool(s.conns) if s.kind == "human" else True,
                "substituted": t.substituted(i),
                "open": is_open(t, s),
                "arriving": s.name if s.pending else None,
            }
            for i, s in enumerate(t.seats)
        ]

    @staticmethod
    def _last_json(t: LiveTable) -> dict[str, Any] | None:
        if t.last is None:
            return None
        return {**t.last, "text": action_str(t.last["action"])}

    def broadcast(self, t: LiveTable) -> None:
        self._broadcast(t)

    def schedule(self, t: LiveTable) -> None:
        self._schedule(t)

    def _broadcast(self, t: LiveTable) -> None:
        texts = self.texts(t)
        for i, s in enumerate(t.seats):
            if s.conns:
                text = texts.text(i)
                for c in s.conns:
                    c.send_text(text)
        if t.spectators:
            text = texts.text(None)
            for c in t.spectators:
                c.send_text(text)

    async def handle(
        self, t: LiveTable, conn: Conn, msg: Auth | Spectate | Act | Sync | Ping | Hint | Chat
    ) -> None:
        if isinstance(msg, Ping):
            conn.send({"type": "pong"})
        elif isinstance(msg, Auth | Spectate):
            self._join(t, conn, msg)
        elif conn.seat is None and not conn.spectator:
            conn.send(error("not_authenticated"))
        elif isinstance(msg, Sync):
            conn.send_text(self.texts(t).text(conn.seat))
        elif isinstance(msg, Chat):
            await self._chat(t, conn, msg)
        elif conn.seat is None:
            conn.send(error("spectator"))
        elif isinstance(msg, Hint):
            self._hint(t, conn)
        else:
            await self._act(t, conn, msg)

    def _join(self, t: LiveTable, conn: Conn, msg: Auth | Spectate) -> None:
        if conn.seat is not None or conn.spectator:
            conn.send(error("already_authenticated"))
            return
        if isinstance(msg, Spectate):
            if len(t.spectators) >= self.settings.max_spectators:
                conn.send(error("server_busy", "this table has as many spectators as it allows"))
                return
            conn.spectator = True
            t.spectators.add(conn)
            conn.send(
                {
                    "type": "welcome",
                    "table": t.id,
                    "seat": None,
                    "role": "spectator",
                    "server_time": time.time(),
                }
            )
            conn.send_text(self.texts(t).text(None))
            self._history(t, conn)
            return
        for i, s in enumerate(t.seats):
            if s.has_token(msg.token) and s.pending:
                # A quick-play seat whose bot finishes the hand: watch until it is yours.
                conn.spectator, conn.waiting = True, i
                t.spectators.add(conn)
                conn.send(self.welcome(t, i))
                conn.send_text(self.texts(t).text(None))
                self._history(t, conn)
                return
            if s.has_token(msg.token):
                conn.seat = i
                back = not s.conns
                s.conns.add(conn)
                s.away_since = None
                conn.send(self.welcome(t, i))
                if back:
                    self._broadcast(t)  # everyone sees the seat connected again
                    self._schedule(t)
                else:
                    conn.send_text(self.texts(t).text(i))
                self._history(t, conn)
                return
        conn.strikes += 10  # guessing tokens is costly
        conn.send(error("bad_token"))

    def welcome(self, t: LiveTable, seat: int) -> dict[str, Any]:
        """The ``welcome`` for the holder of ``seat``: ``player``, or ``waiting`` while a
        quick-play bot finishes the hand (then another ``welcome`` says ``player``)."""
        s = t.seats[seat]
        return {
            "type": "welcome",
            "table": t.id,
            "seat": seat,
            "role": "waiting" if s.pending else "player",
            "name": s.name,
            # Lets a client with a wrong clock show the turn timer right.
            "server_time": time.time(),
        }

    async def _chat(self, t: LiveTable, conn: Conn, msg: Chat) -> None:
        """Store a chat line, then send it to everyone at the table (spectators too)."""
        o = t.options
        if conn.seat is None and not o.spectator_chat:
            conn.send(error("spectator", "spectators do not chat at this table"))
            return
        if (msg.phrase is None) == (msg.text is None):
            conn.send(error("bad_chat"))
            return
        text = clean_text(msg.text) if msg.text is not None else None
        if msg.text is not None and text is None:
            conn.send(error("bad_chat"))
            return
        if o.chat == "off" or (text is not None and o.chat != "free"):
            conn.send(error("chat_off"))
            return
        if not conn.chat_bucket.take():
            conn.strikes += 1
            conn.send(error("rate_limited"))
            return
        async with t.lock:
            if t.chat_count >= MAX_LINES:
                conn.send(error("chat_full"))
                return
            seat = conn.seat
            name = t.seats[seat].name if seat is not None else None
            line = ChatRow(t.chat_count, seat, name, msg.phrase, text)
            try:
                await self.run_db(self.repo.add_chat, t.id, line)
            except Exception:
                log.exception("could not store a chat line of table %s", t.id)
                conn.send(error("server_busy"))
                return
            t.chat_count += 1
            out = chat_message(line)
            t.chat.append(out)
        text_out = json.dumps(out, separators=(",", ":"))
        for s in t.seats:
            for c in s.conns:
                c.send_text(text_out)
        for c in t.spectators:
            c.send_text(text_out)

    def _history(self, t: LiveTable, conn: Conn) -> None:
        if t.chat:
            conn.send({"type": "chat_history", "lines": list(t.chat)})

    def leave(self, t: LiveTable, conn: Conn) -> None:
        if conn.hint_task is not None:
            conn.hint_task.cancel()
        t.spectators.discard(conn)
        if conn.seat is not None:
            s = t.seats[conn.seat]
            s.conns.discard(conn)
            if not s.conns and self.tables.get(t.id) is t:
                s.away_since = time.monotonic()
                t.idle_since = time.monotonic()
                self._broadcast(t)
                self._schedule(t)

    async def _act(self, t: LiveTable, conn: Conn, msg: Act) -> None:
        assert conn.seat is not None
        if isinstance(msg.action, int):
            action = msg.action
        else:
            try:
                action = parse_action(msg.action)
            except ActionParseError as e:
                conn.send(error("bad_action", str(e)))
                return
        async with t.lock:
            err = self._check_turn(t, conn.seat, msg.seq)
            if err is not None:
                conn.send(err)
                return
            await self._apply(t, conn.seat, action, "player", conn)

    def _hint(self, t: LiveTable, conn: Conn) -> None:
        """Answer the asker alone with what the hint bot would play from its seat's own
        view (never the full state). The bot runs in the worker pool, in a task of its
        own so the player may still act meanwhile. One hint at a time per seat (over all
        its connections), and only the seat on turn may ask: at most one hint per table
        is in the workers at a time, so hints cannot crowd out bot seats."""
        assert conn.seat is not None
        if any(
            c.hint_task is not None and not c.hint_task.done() for c in t.seats[conn.seat].conns
        ):
            conn.send(error("hint_busy"))
            return
        err = self._check_turn(t, conn.seat, None)
        if err is not None:
            conn.send(err)
            return
        assert t.state is not None
        conn.hint_task = asyncio.create_task(
            self._answer_hint(t, conn, t.seq, t.state.view(conn.seat))
        )

    async def _answer_hint(self, t: LiveTable, conn: Conn, seq: int, view: PlayerView) -> None:
        spec = self.settings.hint_bot
        try:
            advice = await self.bots.suggest(spec, view, t.id, advise=True)
        except Exception:
            log.exception("hint failed at table %s", t.id)
            advice = None
        if t.seq != seq:
            return  # the turn passed while the bot thought: the answer is moot
        if advice is None:
            conn.send(error("hint_failed"))
            return
        why = explain(view, advice.action)
        ev = advice.evidence
        conn.send(
            {
                "type": "hint",
                "action": action_str(advice.action),
                "bot": spec,
                "seq": seq,
                "why": why.to_json(),
                "evidence": ev.line().to_json() if ev is not None else None,
            }
        )

    def _check_turn(self, t: LiveTable, seat: int, seq: int | None) -> dict[str, object] | None:
        st = t.state
        if st is None:
            return error("not_started")
        if st.is_terminal():
            return error("game_over")
        if seq is not None and seq != t.seq:
            return error("stale", seq=t.seq)
        if st.current_player() != seat:
            return error("not_your_turn", turn=st.current_player())
        return None

    async def _apply(
        self, t: LiveTable, seat: int, action: int, by: str, conn: Conn | None = None
    ) -> None:
        """Validate with the engine, commit, then broadcast. Call under ``t.lock``.

        The action is applied to a copy: until the commit returns, the table (and any
        broadcast that a connecting player triggers meanwhile) shows the stored state."""
        assert t.state is not None
        st = t.state.copy()
        try:
            st.apply(action)
        except IllegalActionError as e:
            if conn is not None:
                conn.send(error(e.rule, str(e), rule=e.rule, legal=list(e.legal)))
            return
        except PitchError as e:
            if conn is not None:
                conn.send(error("bad_action", str(e)))
            return
        events = [EventRow(kind="action", seat=seat, action=action, by=by)]
        deal = deal_if_needed(st)
        if deal is not None:
            events.append(deal)
        over = st.is_terminal()
        if not self.owners.valid():  # the store would refuse it too (owner): spare it
            if conn is not None:
                conn.send(error("server_busy"))
            return
        try:
            await self.commits.append(
                Append(t.id, t.seq, events, "over" if over else "playing", st.winner)
            )
        except Exception:
            log.exception("could not store an action of table %s; rebuilding it", t.id)
            await self._reload(t)
            if conn is not None:
                conn.send(error("server_busy"))
            return
        t.state = st
        t.seq += len(events)
        t.last = {"seat": seat, "action": action, "by": by}
        t.turn_started = t.idle_since = time.monotonic()
        if over:
            t.status = "over"
        elif deal is not None and any(x.pending for x in t.seats):
            await self.quick.arrive(t)  # a new hand: strangers take their bot seats
        self._schedule(t)
        self._broadcast(t)

    async def _reload(self, t: LiveTable) -> None:
        stored = await self.run_db(self.repo.load, t.id)
        if stored is not None and stored.owner != self.repo.owner:
            self._let_go(t)  # adopted or handed over: the new owner has it
        elif stored is not None:
            fresh = LiveTable.from_stored(stored)
            t.state, t.seq, t.status, t.last = fresh.state, fresh.seq, fresh.status, fresh.last

    # ------------------------------------------------------------ automatic moves

    def _schedule(self, t: LiveTable) -> None:
        """(Re)plan the next move nobody at a keyboard makes: a bot's turn, an absent
        human's substitute after the grace period, or the turn timer running out."""
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current:
            t.timer.cancel()
        t.timer = None
        t.turn_deadline = None
        st = t.state
        if st is None or t.status == "over":
            return
        seat = st.current_player()
        if seat == TERMINAL or seat < 0:
            return
        s = t.seats[seat]
        o = t.options
        now = time.monotonic()
        due: float | None = None
        by = ""
        spec = o.substitute
        if s.kind == "bot":
            due, by, spec = now + o.bot_delay, "bot", s.bot or "random"
        else:
            if o.grace_seconds is not None and not s.conns and s.away_since is not None:
                due, by = max(s.away_since + o.grace_seconds, now + o.bot_delay), "substitute"
            if o.turn_seconds is not None:
                d = t.turn_started + o.turn_seconds
                t.turn_deadline = time.time() + (d - now)
                if due is None or d < due:
                    due, by = d, "timer"
        if due is not None:
            t.timer = asyncio.create_task(self._auto(t, t.seq, seat, due, by, spec))

    async def _auto(
        self, t: LiveTable, seq: int, seat: int, due: float, by: str, spec: str
    ) -> None:
        """Make the move nobody at a keyboard makes. The bot pool answers with a legal
        move whatever the bot does (the heuristic's when it fails); should anything
        else go wrong, the move is planned again shortly, so a table never stalls."""
        try:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            st = t.state
            if st is None or t.seq != seq:
                return
            view = st.view(seat)
            action = await self.bots.choose(spec, view, t.id)
            async with t.lock:
                if t.seq != seq:  # a human acted meanwhile
                    return
                t.timer = None
                await self._apply(t, seat, action, by)
                if t.seq == seq:  # not applied (an engine refusal): play the heuristic's
                    log.error("bot %s at table %s: move %s refused", spec, t.id, action)
                    await self._apply(t, seat, fallback(view), by)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move failed at table %s; trying again", t.id)
            if t.timer is None or t.timer is asyncio.current_task():
                t.timer = asyncio.create_task(
                    self._auto(t, seq, seat, time.monotonic() + 1.0, by, spec)
                )

    # ------------------------------------------------------------ connections per client

    def admit(self, client: str) -> bool:
        n = self.conns_by_client.get(client, 0)
        if n >= self.settings.max_connections_per_client:
            return False
        self.conns_by_client[client] = n + 1
        return True

    def release(self, client: str) -> None:
        n = self.conns_by_client.get(client, 1) - 1
        if n <= 0:
            self.conns_by_client.pop(client, None)
        else:
            self.conns_by_client[client] = n
