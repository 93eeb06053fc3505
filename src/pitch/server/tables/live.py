"""A live table in memory: rules, seats, the engine state, the connections."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from pitch.bots.registry import level_of
from pitch.engine import BID, CHANCE, GameState, Rules
from pitch.server.kernel.limits import TokenBucket
from pitch.server.kernel.schemas import TableOptions
from pitch.server.tables.chat import HISTORY
from pitch.store import ChatRow, EventRow, StoredTable

RESIGN = "resign"
"""The event that ends a game where the last player resigned at a table of bots."""


def deal_if_needed(state: GameState) -> EventRow | None:
    """Between hands the engine waits for a deal: draw it with ``secrets``."""
    if state.current_player() != CHANCE:
        return None
    state.deal_random()  # no rng: secrets.SystemRandom (see /fairness)
    return EventRow(kind="deal", deal=tuple(state.dealt), by="server")


def chat_message(c: ChatRow) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "chat", "n": c.n, "seat": c.seat, "name": c.name}
    if c.phrase is not None:
        msg["phrase"] = c.phrase
    else:
        msg["text"] = c.text
    return msg


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Socket(Protocol):
    """What a :class:`Conn` asks of its WebSocket (FastAPI's, in the api room): the
    tables room imports no web framework."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Wire(Protocol):
    """The connection under a socket (``pitch.server.realtime.sockets.guarded_ws``)."""

    def unsent(self) -> int: ...

    def reset(self, why: str) -> None: ...


@dataclass(slots=True)
class SocketAccount:
    """The signed-in account of a table socket (its session cookie when it opened), and
    whose chat it is not sent: the accounts it blocks or is blocked by, and the seats of
    this table they were last seen to hold (docs/server.md, "Friends and safety")."""

    account_id: int
    blocked: frozenset[int]
    hidden_seats: set[int]


class Conn:
    """One WebSocket. Sends go through a bounded queue and a writer task, so a slow
    client never holds up a broadcast; one that falls too far behind is dropped.

    The queue is a list and one waiting future rather than an ``asyncio.Queue``:
    every state goes through here four times per action, and the lighter queue
    costs a third as much. A list, not a deque, and ``__slots__``: an idle socket
    keeps its ``Conn`` for hours, and an empty deque is 760 bytes, a ``__dict__`` of
    these attributes 1 KiB (docs/benchmarks.md, "Idle sockets")."""

    __slots__ = (
        "_behind_since",
        "_limit",
        "_max_unsent",
        "_queue",
        "_queued",
        "_slow_seconds",
        "_wake",
        "account",
        "bucket",
        "client",
        "close_code",
        "closed",
        "hint_task",
        "opened",
        "overflowed",
        "seat",
        "site",
        "spectator",
        "strikes",
        "sync_bucket",
        "waiting",
        "watching",
        "wire",
        "ws",
    )

    def __init__(
        self,
        ws: Socket,
        *,
        rate: float,
        burst: int,
        queue: int,
        client: str = "",
        site: str = "",
        wire: Wire | None = None,
        max_unsent: int = 128 * 1024,
        slow_seconds: float = 10.0,
    ) -> None:
        self.ws = ws
        self.wire = wire
        """Where the socket's unsent bytes are seen (``None`` under a test client)."""
        self._max_unsent = max_unsent
        self._slow_seconds = slow_seconds
        self._behind_since: float | None = None
        self._queued = 0
        """Characters in the queue (the messages are ASCII JSON: bytes)."""
        self.client = client
        """The client address the per-client limits count (``api.deps.Client``)."""
        self.site = site
        """Its /24 or /48 (``api.deps.get_site``): tables kept going per network."""
        self.opened: str | None = None
        """The table this socket has open, once it joined (``Connections``)."""
        self.watching: str | None = None
        """The same, for a socket that joined as a spectator (``spectate``)."""
        self.close_code = 1000
        self.seat: int | None = None
        self.spectator = False
        self.waiting: int | None = None
        """The quick-play seat this spectator takes when the hand ends (``None``: none)."""
        self.bucket = TokenBucket(rate=rate, burst=burst)
        self.strikes = 0
        self.sync_bucket = TokenBucket(rate=1.0, burst=3)
        """``sync`` messages (each builds the whole state): a few, then one a second."""
        self.hint_task: asyncio.Task[None] | None = None
        """Works out this connection's last ``hint`` (one at a time)."""
        self._queue: list[str] = []
        """At most ``queue`` messages, so taking from the front is cheap."""
        self._limit = queue
        self._wake: asyncio.Future[None] | None = None
        self.closed = False
        self.overflowed = False
        self.account: SocketAccount | None = None
        """A signed-in player's socket: its account (``None``: a guest's)."""

    def send(self, msg: dict[str, Any]) -> None:
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if len(self._queue) >= self._limit:
            self.cut(f"{len(self._queue)} messages queued")
            return
        if self.wire is not None and self._too_slow():
            return
        self._queue.append(text)
        self._queued += len(text)
        self._notify()

    def _too_slow(self) -> bool:
        """Whether the client has left more than ``max_unsent`` bytes unread for
        ``slow_seconds`` (then it is cut). The kernel's buffers hide a client that
        reads nothing until they are full, so the count starts there."""
        assert self.wire is not None
        unsent = self.wire.unsent() + self._queued
        if unsent <= self._max_unsent:
            self._behind_since = None
            return False
        now = time.monotonic()
        if self._behind_since is None:
            self._behind_since = now
        elif now - self._behind_since >= self._slow_seconds:
            self.cut(f"{unsent} bytes unread for {now - self._behind_since:.0f} s")
            return True
        return False

    def cut(self, why: str) -> None:
        """Drop a client that reads too slowly: what is queued is never sent, and the
        connection is reset (a close frame would wait behind what it did not read)."""
        self.overflowed = True
        self.close()
        if self.wire is not None:
            self.wire.reset(f"table {self.opened}: {why}")

    def _notify(self) -> None:
        w = self._wake
        if w is not None and not w.done():
            w.set_result(None)

    def close(self, code: int = 1000) -> None:
        """Close once what is queued is sent, with ``code`` (1013: come back later)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._notify()

    async def writer(self) -> None:
        """Send what is queued, in order, until :meth:`close` (then what is still
        queued is sent too, unless the client fell too far behind)."""
        loop = asyncio.get_running_loop()
        q = self._queue
        try:
            while True:
                while q and not self.overflowed:
                    text = q.pop(0)
                    self._queued -= len(text)
                    await self.ws.send_text(text)
                    del text  # not kept while the socket idles
                if self.closed:
                    break
                self._wake = loop.create_future()
                await self._wake
                self._wake = None
        except Exception:  # the client went away mid-send: nothing more to do
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                await self.ws.close(1008 if self.overflowed else self.close_code)


@dataclass(eq=False)
class Seat:
    kind: str
    bot: str | None
    name: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    away_since: float | None = None
    """Monotonic time the seat's last connection closed (or it was claimed)."""

    @classmethod
    def fresh(cls, kind: str, bot: str | None) -> Seat:
        """A seat of a new table (or a rematch): a bot's keeps its spec, a human's is
        open and names no bot."""
        return cls(kind=kind, bot=bot if kind == "bot" else None)

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def pending(self) -> bool:
        """A quick-play bot seat a stranger has claimed: theirs when the hand ends."""
        return self.kind == "bot" and self.token_hash is not None

    def has_token(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, hash_token(token)
        )


def names_at(t: LiveTable, but: int) -> list[str]:
    """The names the table's seats other than ``but`` go by: their players', and those
    a bot plays for (a resigned player's)."""
    return [s.name for i, s in enumerate(t.seats) if i != but and s.name is not None]


@dataclass(eq=False)
class LiveTable:
    id: str
    rules: Rules
    options: TableOptions
    first_dealer: int
    seats: list[Seat]
    created_at: Any
    state: GameState | None = None
    seq: int = 0
    status: str = "waiting"
    last: dict[str, Any] | None = None
    spectators: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    turn_started: float = field(default_factory=time.monotonic)
    turn_deadline: float | None = None
    """Wall-clock time the turn timer runs out (for clients), or ``None``."""
    idle_since: float = field(default_factory=time.monotonic)
    changed: float = field(default_factory=time.monotonic)
    """Monotonic time of the last state sent (a spectator is idle only while it stays)."""
    rematch: str | None = None
    """The table of this finished game's rematch, once a player asked for one."""
    resigned: int | None = None
    """The seat whose player's resignation ended the game: the last player at a table
    of bots (a ``resign`` event; :meth:`pitch.server.tables.seats.SeatClaims.leave`)."""
    chat_buckets: dict[str, TokenBucket] = field(default_factory=dict)
    """Chat lines by who says them (a seat, or a spectator's client), however many
    sockets they have open: a few at once, then one every two seconds."""
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=HISTORY))
    """The last chat lines, as sent (``chat`` messages)."""
    chat_count: int = 0
    bids_by: list[tuple[int, int]] = field(default_factory=list)
    """Per hand (the one in play too): the seats that have bid, and those whose bid their
    bot made, as bit masks. A seat that changed hands in the game (a stranger took over
    a quick-play bot, a player resigned to one) names its past hands' bids by who made
    them (:meth:`holder_since`)."""

    @classmethod
    def from_stored(cls, st: StoredTable, before: LiveTable | None = None) -> LiveTable:
        """Rebuild a table by replaying its stored events through the engine; with
        ``before``, a copy of it as of event ``st.since``, only the events after it."""
        t = cls(
            id=st.id,
            rules=Rules.from_dict(st.rules),
            options=TableOptions.model_validate(st.options),
            first_dealer=st.first_dealer,
            seats=[
                Seat(kind=s.kind, bot=s.bot, name=s.name, token_hash=s.token_hash) for s in st.seats
            ],
            created_at=st.created_at,
            status=st.status,
            rematch=st.rematch,
            chat_count=st.chat_count,
        )
        t.chat.extend(chat_message(c) for c in st.chat)
        now = time.monotonic()
        for s in t.seats:
            if s.kind == "human":
                s.away_since = now  # nobody is connected after a restart
        if before is not None and st.since:
            assert before.seq == st.since and before.state is not None
            t.state, t.seq, t.last = before.state.copy(), before.seq, before.last
            t.bids_by = list(before.bids_by)
        elif st.events:
            t.state = GameState(t.rules, dealer=t.first_dealer)
        for e in st.events:
            t.apply_event(e)
        t.seq += len(st.events)
        return t

    def apply_event(self, e: EventRow) -> None:
        assert self.state is not None
        if e.kind == "deal":
            assert e.deal is not None
            self.state.deal(e.deal)
        elif e.kind == RESIGN:  # the game ends here; the hand in play is not finished
            self.resigned = e.seat
        else:
            assert e.action is not None and e.seat == self.state.current_player()
            self.note_bid(self.state, e.seat, e.by)
            self.state.apply(e.action)
            self.last = {"seat": e.seat, "action": e.action, "by": e.by}

    def note_bid(self, before: GameState, seat: int, by: str) -> None:
        """Before ``seat``'s move on ``before``: if it is its bid, note who made it."""
        if before.phase != BID:
            return
        hand = len(before.history)
        while len(self.bids_by) <= hand:
            self.bids_by.append((0, 0))
        bit = 1 << seat
        did, bots = self.bids_by[hand]
        self.bids_by[hand] = (did | bit, bots | bit if by == "bot" else bots)

    def holder_since(self, seat: int) -> int | None:
        """For a seat whose holder changed in the game, the number of hands whose bid at
        it the one before made (the score sheet names those hands by them); else
        ``None``. A stranger takes a bot's seat between hands, a player may resign
        mid-hand: the hands are told apart by who made the seat's bid."""
        s = self.seats[seat]
        bot_now = s.kind == "bot"
        if not ((not bot_now and s.bot is not None) or (bot_now and s.name and not s.pending)):
            return None
        bit = 1 << seat
        k = len(self.bids_by)
        while k > 0:
            did, bots = self.bids_by[k - 1]
            if did & bit and bool(bots & bit) != bot_now:
                break
            k -= 1
        return k or None

    def chat_bucket(self, who: str) -> TokenBucket:
        """``who``'s chat allowance here (``seat 2``, ``client <key>``)."""
        b = self.chat_buckets.pop(who, None)  # put back last: the least recent go first
        if b is None:
            if len(self.chat_buckets) >= 256:  # spectators come and go: forget one
                del self.chat_buckets[next(iter(self.chat_buckets))]
            b = TokenBucket(rate=0.5, burst=5)
        self.chat_buckets[who] = b
        return b

    def connected(self, seat: int) -> bool:
        return bool(self.seats[seat].conns)

    def keepers(self) -> list[str]:
        """The clients with the table open (players' and spectators' sockets): its bot
        work is done for them, and waits in the turn of whichever comes soonest
        (``BotPool``), so that no one address makes anyone else's game wait."""
        seen = dict.fromkeys(c.client for s in self.seats for c in s.conns)
        seen.update(dict.fromkeys(c.client for c in self.spectators))
        return list(seen)

    def watched(self) -> bool:
        """Someone has the table open: a player's socket or a spectator's. A table
        nobody has open waits (``Scheduler.schedule``): no request can make the server
        play games nobody is at."""
        return bool(self.spectators) or any(s.conns for s in self.seats)

    def substituted(self, seat: int) -> bool:
        s = self.seats[seat]
        g = self.options.grace_seconds
        return (
            s.kind == "human"
            and g is not None
            and not s.conns
            and s.away_since is not None
            and time.monotonic() - s.away_since >= g
        )

    def names(self) -> list[str | None]:
        """The seats' names for the game record, as the table shows them: a player's
        name, or ``Bot 2 (club)`` (the seat number the table shows, and the level, or
        the bot spec if it is no level). A seat whose player resigned to a bot keeps
        their name first: ``Tess, then Bot 2 (club)``; a quick-play seat that a stranger
        took over from its bot names the bot first: ``Bot 2 (club), then Ann``.
        Language-neutral: clients translate at display."""
        out: list[str | None] = []
        for i, s in enumerate(self.seats):
            bot = f"Bot {i + 1} ({level_of(s.bot) or s.bot or 'random'})"
            if s.kind == "human":
                out.append(f"{bot}, then {s.name}" if s.bot else s.name)
            elif s.pending:
                out.append(bot)
            else:
                out.append(f"{s.name}, then {bot}" if s.name else bot)
        return out


def is_open(t: LiveTable, s: Seat) -> bool:
    """A bot seat of a quick-play table that no player ever held or claimed."""
    return t.options.quick and s.kind == "bot" and s.name is None and s.token_hash is None
