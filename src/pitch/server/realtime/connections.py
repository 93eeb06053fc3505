"""A table's connections: who a socket is (a seat, or a spectator), its chat, its
leaving, and how many sockets one client may hold."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pitch.server.botplay.scheduler import Scheduler
from pitch.server.kernel.text import TextRefused
from pitch.server.tables.chat import MAX_LINES, clean_line
from pitch.server.tables.fanout import broadcast
from pitch.server.tables.live import Conn, LiveTable, chat_message
from pitch.server.tables.play import Play
from pitch.server.tables.protocol import Act, Auth, Chat, Hint, Ping, Spectate, Sync, error
from pitch.server.tables.store import RunDb
from pitch.server.tables.table_json import state_texts
from pitch.store import ChatRow, TableRepo

log = logging.getLogger("pitch.server")

SITE_TABLES_FACTOR = 8
"""Tables the sockets of one /24 (IPv4) or /48 (IPv6) may keep going, as a multiple of
one address's (``tables_open_per_client``): a table a player's socket holds never
leaves memory for another, and 157 addresses keeping 32 each filled the server's 5,000
(``lifecycle.make_room``). A network's budget is larger than an address's, since
many people may share one (a school, a provider's NAT)."""


def welcome(t: LiveTable, seat: int) -> dict[str, Any]:
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


def _history(t: LiveTable, conn: Conn) -> None:
    if t.chat:
        hidden = conn.account.hidden_seats if conn.account is not None else None
        lines = [x for x in t.chat if x["seat"] not in hidden] if hidden else list(t.chat)
        conn.send({"type": "chat_history", "lines": lines})


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """The settings the sockets keep to (``Settings``' fields)."""

    max_connections_per_client: int
    tables_open_per_client: int
    watched_tables_per_client: int
    max_spectators: int
    spectators_per_client: int


class Connections:
    def __init__(
        self,
        repo: TableRepo,
        run_db: RunDb,
        tables: dict[str, LiveTable],
        play: Play,
        scheduler: Scheduler,
        limits: SocketLimits,
        seat_accounts: Callable[[str], dict[int, int]],
    ) -> None:
        self.repo = repo
        self.seat_accounts = seat_accounts
        """Which account holds each seat of a table (a read of the store): whose chat
        line it is, for the sockets of players who block its writer."""
        self.run_db = run_db
        self.tables = tables
        self.play = play
        self.scheduler = scheduler
        self.limits = limits
        self.by_client: dict[str, int] = {}
        """Open sockets per client address (``admit``/``release``)."""
        self.tables_of: dict[str, dict[str, int]] = {}
        """Per client address, the tables its sockets have open (sockets on each)."""
        self.watching: dict[str, dict[str, int]] = {}
        """The same for its spectators' sockets (``spectate``) alone."""
        self.tables_of_site: dict[str, dict[str, int]] = {}
        """The same as ``tables_of``, per /24 or /48 (``Conn.site``)."""

    def admit(self, client: str) -> bool:
        n = self.by_client.get(client, 0)
        if n >= self.limits.max_connections_per_client:
            return False
        self.by_client[client] = n + 1
        return True

    def release(self, client: str) -> None:
        n = self.by_client.get(client, 1) - 1
        if n <= 0:
            self.by_client.pop(client, None)
        else:
            self.by_client[client] = n

    async def handle(
        self, t: LiveTable, conn: Conn, msg: Auth | Spectate | Act | Sync | Ping | Hint | Chat
    ) -> None:
        """One client message, parsed."""
        if isinstance(msg, Ping):
            conn.send({"type": "pong"})
        elif isinstance(msg, Auth | Spectate):
            self._join(t, conn, msg)
        elif conn.seat is None and not conn.spectator:
            conn.send(error("not_authenticated"))
        elif isinstance(msg, Sync):
            if conn.sync_bucket.take():
                conn.send_text(state_texts(t).text(conn.seat))
            else:  # every state is sent as it changes: a client needs few of these
                conn.strikes += 1
                conn.send(error("rate_limited", "at most one sync a second"))
        elif isinstance(msg, Chat):
            await self._chat(t, conn, msg)
        elif conn.seat is None:
            conn.send(error("spectator"))
        elif isinstance(msg, Hint):
            self.scheduler.hint(t, conn)
        else:
            await self.play.act(t, conn, msg)

    def _join(self, t: LiveTable, conn: Conn, msg: Auth | Spectate) -> None:
        if conn.seat is not None or conn.spectator:
            conn.send(error("already_authenticated"))
            return
        refusal = self._may_open(conn, t.id)
        if refusal is not None:
            # A table plays only while someone has it open: this bounds the tables one
            # address (and one network) can keep playing, and keep in memory.
            conn.send(error("too_many_tables", refusal))
            conn.close()
            return
        was_open = t.watched()
        if isinstance(msg, Spectate):
            if not self._may_watch(t, conn, new_table=True):
                return
            conn.spectator = True
            t.spectators.add(conn)
            self._opened(conn, t.id)
            conn.watching = t.id
            watched = self.watching.setdefault(conn.client, {})
            watched[t.id] = watched.get(t.id, 0) + 1
            if not was_open:
                self.scheduler.opened(t)
            conn.send(
                {
                    "type": "welcome",
                    "table": t.id,
                    "seat": None,
                    "role": "spectator",
                    "server_time": time.time(),
                }
            )
            conn.send_text(state_texts(t).text(None))
            _history(t, conn)
            return
        for i, s in enumerate(t.seats):
            if s.has_token(msg.token) and s.pending:
                # A quick-play seat whose bot finishes the hand: watch until it is yours.
                if not self._may_watch(t, conn):
                    return
                conn.spectator, conn.waiting = True, i
                t.spectators.add(conn)
                self._opened(conn, t.id)
                if not was_open:
                    self.scheduler.opened(t)
                conn.send(welcome(t, i))
                conn.send_text(state_texts(t).text(None))
                _history(t, conn)
                return
            if s.has_token(msg.token):
                conn.seat = i
                back = not s.conns
                s.conns.add(conn)
                self._opened(conn, t.id)
                s.away_since = None
                conn.send(welcome(t, i))
                if back:
                    if was_open:
                        self.scheduler.schedule(t)  # no stand-in for this seat now
                    else:
                        self.scheduler.opened(t)
                    broadcast(t)  # everyone sees the seat connected again (and the timer)
                else:
                    conn.send_text(state_texts(t).text(i))
                _history(t, conn)
                return
        conn.strikes += 10  # guessing tokens is costly
        conn.send(error("bad_token"))

    def _may_watch(self, t: LiveTable, conn: Conn, *, new_table: bool = False) -> bool:
        """Room for one more spectator's socket at ``t`` (else refused, and closed: its
        client tries again later); with ``new_table``, for one more table this client
        watches too."""
        settings = self.limits
        watched = self.watching.get(conn.client, {})
        n = settings.watched_tables_per_client
        if new_table and t.id not in watched and len(watched) >= n:
            # Watching is free, and a watched table used to hold its place in memory.
            conn.send(error("too_many_tables", f"you watch {n} tables; close one first"))
        elif len(t.spectators) >= settings.max_spectators:
            conn.send(error("server_busy", "this table has as many spectators as it allows"))
        elif sum(c.client == conn.client for c in t.spectators) >= settings.spectators_per_client:
            # Else one address could take every spectator's place at any table.
            conn.send(error("too_many_spectators"))
        else:
            return True
        conn.close()
        return False

    def _may_open(self, conn: Conn, table: str) -> str | None:
        """Why ``conn`` may not open ``table`` too, or ``None``."""
        n = self.limits.tables_open_per_client
        tables = self.tables_of.get(conn.client, {})
        if table not in tables and len(tables) >= n:
            return f"you have {n} tables open; close one first"
        site = self.tables_of_site.get(conn.site, {})
        if table not in site and len(site) >= n * SITE_TABLES_FACTOR:
            return f"your network has {n * SITE_TABLES_FACTOR} tables open; close one first"
        return None

    def _opened(self, conn: Conn, table: str) -> None:
        conn.opened = table
        for counts, key in ((self.tables_of, conn.client), (self.tables_of_site, conn.site)):
            tables = counts.setdefault(key, {})
            tables[table] = tables.get(table, 0) + 1

    def _closed(self, conn: Conn) -> None:
        if conn.watching is not None:
            _drop(self.watching, conn.client, conn.watching)
            conn.watching = None
        table, conn.opened = conn.opened, None
        if table is not None:
            _drop(self.tables_of, conn.client, table)
            _drop(self.tables_of_site, conn.site, table)

    async def _chat(self, t: LiveTable, conn: Conn, msg: Chat) -> None:
        """Store a chat line, then send it to everyone at the table (spectators too)."""
        o = t.options
        if conn.seat is None and not o.spectator_chat:
            conn.send(error("spectator", "spectators do not chat at this table"))
            return
        if (msg.phrase is None) == (msg.text is None):
            conn.send(error("bad_chat"))
            return
        try:
            text = clean_line(msg.text) if msg.text is not None else None
        except TextRefused as e:
            conn.send(error("bad_chat", e.message, reason=e.reason, **e.extra))
            return
        if o.chat == "off" or (text is not None and o.chat != "free"):
            conn.send(error("chat_off"))
            return
        who = f"seat {conn.seat}" if conn.seat is not None else f"client {conn.client}"
        if not t.chat_bucket(who).take():  # by seat, not socket: sockets are many
            conn.strikes += 1
            conn.send(error("rate_limited"))
            return
        # A spectator's line carries no account: it is hidden from nobody.
        hiding = self._hiding(t) if conn.seat is not None else []
        owners = await self._owners(t) if hiding else {}
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
                if not await self._chat_stored(t, line.n):
                    conn.send(error("server_busy"))
                    return
            t.chat_count += 1
            out = chat_message(line)
            t.chat.append(out)
        text_out = json.dumps(out, separators=(",", ":"))
        for c in hiding:  # their seats as they are now: a blocked player may have sat down
            assert c.account is not None
            c.account.hidden_seats = (
                {s for s, a in owners.items() if a in c.account.blocked}
                if owners is not None  # the store could not say: rather hide than show
                else set(range(len(t.seats))) - {c.seat}
            )
        for s in t.seats:
            for c in s.conns:
                if c.account is None or seat not in c.account.hidden_seats:
                    c.send_text(text_out)
        for c in t.spectators:
            if c.account is None or seat not in c.account.hidden_seats:
                c.send_text(text_out)

    def blocks_changed(self, a: int, b: int, *, blocked: bool) -> None:
        """A block between accounts ``a`` and ``b`` began (or ended): this process's
        open sockets of either account know it from the next chat line on (another
        process's, from their next opening). One pass over the live tables' sockets:
        blocks are rare, and a guest's socket costs one attribute read."""
        for t in self.tables.values():
            for c in [c for s in t.seats for c in s.conns] + list(t.spectators):
                acc = c.account
                if acc is None or acc.account_id not in (a, b):
                    continue
                other = b if acc.account_id == a else a
                acc.blocked = acc.blocked | {other} if blocked else acc.blocked - {other}
                if not acc.blocked:
                    acc.hidden_seats = set()  # else the next line works them out anew

    @staticmethod
    def _hiding(t: LiveTable) -> list[Conn]:
        """The sockets at ``t`` of signed-in players who block someone (or are blocked):
        at most tables, none, and a guest's socket costs one attribute read."""
        out = [c for s in t.seats for c in s.conns if c.account is not None and c.account.blocked]
        out += [c for c in t.spectators if c.account is not None and c.account.blocked]
        return out

    async def _owners(self, t: LiveTable) -> dict[int, int] | None:
        """Seat -> account at ``t`` (``None``: the store could not say)."""
        try:
            return await self.run_db(self.seat_accounts, t.id)
        except Exception:
            log.exception("could not read the accounts of table %s", t.id)
            return None

    async def _chat_stored(self, t: LiveTable, n: int) -> bool:
        """After a failed write of line ``n``: whether it was stored all the same (the
        answer lost), so that it is said, and its number never used again."""
        try:
            stored = await self.run_db(self.repo.load, t.id)
        except Exception:
            return False
        return stored is not None and stored.chat_count > n

    def leave(self, t: LiveTable, conn: Conn) -> None:
        """A socket closed: its seat is away from now on (the stand-in's grace runs);
        the last socket of all closed: the table waits (``Scheduler.schedule``)."""
        if conn.hint_task is not None:
            conn.hint_task.cancel()
        self._closed(conn)
        t.spectators.discard(conn)
        ours = self.tables.get(t.id) is t
        if conn.seat is not None:
            s = t.seats[conn.seat]
            s.conns.discard(conn)
            if not s.conns and ours:
                s.away_since = time.monotonic()
                t.idle_since = time.monotonic()
                broadcast(t)
                self.scheduler.schedule(t)
        elif conn.spectator and ours and not t.watched():
            t.idle_since = time.monotonic()
            self.scheduler.schedule(t)  # nobody has it open any more: it waits


def _drop(counts: dict[str, dict[str, int]], client: str, table: str) -> None:
    """One socket fewer of ``client``'s on ``table``."""
    tables = counts.get(client)
    if tables is None:
        return
    n = tables.get(table, 1) - 1
    if n > 0:
        tables[table] = n
        return
    tables.pop(table, None)
    if not tables:
        del counts[client]
