"""Reading and writing tables. Every method is one short transaction.

The server keeps live tables in memory and calls :meth:`TableRepo.append` for each
accepted action *before* it tells anyone: the write is conditional on the table's
event count, so a stale or doubled writer fails instead of forking the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update

from pitch.store.db import Database
from pitch.store.models import ChatModel, EventModel, SeatModel, SecretModel, TableModel
from pitch.store.writer import Append, EventRow, EventWriter, StaleWrite, decode_deal, encode_deal


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class ChatRow:
    n: int
    seat: int | None
    name: str | None
    phrase: int | None
    text: str | None


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    created_at: datetime
    rules: dict[str, Any]
    options: dict[str, Any]
    first_dealer: int
    status: str
    seats: tuple[SeatRow, ...]
    events: tuple[EventRow, ...]
    winner: int | None
    rematch: str | None = None
    chat: tuple[ChatRow, ...] = ()
    """The last chat lines (oldest first) and, in ``chat_count``, how many there are."""
    chat_count: int = 0
    owner: str | None = None
    """The instance that serves it (:mod:`pitch.store.ownership`)."""
    since: int = 0
    """The number of the first event in ``events`` (0: all of them)."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    table_id: str
    seat: int
    status: str
    winner: int | None
    created_at: datetime
    updated_at: datetime
    names: tuple[str | None, ...]
    rules: dict[str, Any]
    """The table's rules as stored (``Rules.to_dict``): which side a seat is on."""
    held: tuple[int, ...] = ()
    """The seats a player holds (a token): resigning where nobody else holds one ends
    the game; otherwise a bot plays the seat on."""


LEFT = "left:"
"""Prefix of a table's ``creator`` once the creator has left it (:meth:`TableRepo.leave`)."""


QUICK_ACTIVE = timedelta(minutes=10)
"""A quick-play table that stored nothing for this long is not offered to strangers,
and no longer counts as waiting for its maker (:meth:`TableRepo.open_tables_of`)."""


def _aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _now() -> datetime:
    return datetime.now(UTC)


class TableRepo:
    def __init__(self, db: Database, *, owner: str = "default") -> None:
        self.db = db
        self.owner = owner
        """This server process's name: it owns the tables it writes to (``owner``)."""
        self.writer = EventWriter(db, owner=owner)
        """The hot path (appends); use it from one thread at a time."""

    def create(
        self,
        *,
        table_id: str,
        creator: str,
        rules: dict[str, Any],
        options: dict[str, Any],
        first_dealer: int,
        seats: Sequence[tuple[str, str | None]],
        rematch_of: str | None = None,
    ) -> None:
        """A new table. With ``rematch_of``, it is that finished table's rematch: the
        link is set in the same transaction, and only if it has none yet (else
        :class:`StaleWrite`, and nothing is stored)."""
        now = _now()
        with self.db.sessions.begin() as s:
            if rematch_of is not None:
                done = s.execute(
                    update(TableModel)
                    .where(TableModel.id == rematch_of, TableModel.rematch.is_(None))
                    .values(rematch=table_id)
                )
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    raise StaleWrite(f"table {rematch_of} has a rematch already")
            s.add(
                TableModel(
                    id=table_id,
                    created_at=now,
                    updated_at=now,
                    creator=creator,
                    rules=rules,
                    options=options,
                    first_dealer=first_dealer,
                    status="waiting",
                    seq=0,
                    winner=None,
                )
            )
            s.flush()  # the seats' foreign key needs the table row first
            for i, (kind, bot) in enumerate(seats):
                s.add(SeatModel(table_id=table_id, seat=i, kind=kind, bot=bot))

    def client_secret(self) -> bytes:
        """The key of the hash that stands for a client's address: made once per
        database (migration 0007), so every server process on it names a client alike."""
        with self.db.sessions() as s:
            value = s.scalar(select(SecretModel.value).where(SecretModel.name == "client_key"))
        if value is None:
            raise RuntimeError("the database has no client key: run its migrations")
        return bytes.fromhex(value)

    def open_tables_of(
        self, creator: str, *, within: timedelta = timedelta(days=1)
    ) -> tuple[int, int]:
        """How many unfinished tables ``creator`` has that moved ``within`` the last
        day (abandoned ones stop counting, so nobody is locked out for good): those
        that still wait for them, and all of them. Tables the creator left
        (:meth:`leave`) are no longer theirs: their ``creator`` reads
        ``left:<creator>``, which never equals a client's key. A quick-play table
        nobody played for :data:`QUICK_ACTIVE` waits for nobody: it has a stand-in,
        strangers are not sent to it any more, and it stood still since its player
        went away (a table nobody has open does not move); it counts only to all."""
        now = _now()
        with self.db.sessions() as s:
            rows = s.execute(
                select(TableModel.options, TableModel.updated_at).where(
                    TableModel.creator == creator,
                    TableModel.status != "over",
                    TableModel.updated_at >= now - within,
                )
            ).all()
        idle = sum(
            1
            for options, updated in rows
            if (options or {}).get("quick") and _aware(updated) < now - QUICK_ACTIVE
        )
        return len(rows) - idle, len(rows)

    def leave(
        self,
        table_id: str,
        seat: int,
        *,
        token_hash: str,
        client: str,
        bot: str | None = None,
        end: tuple[int, EventRow] | None = None,
    ) -> str:
        """The player holding ``seat`` (by its token hash) leaves it, in one transaction.

        Without ``bot`` (a table still waiting for players) the seat is open again: no
        token, no name. With ``bot`` (a game in play) the player resigns: the seat
        becomes a bot seat played by ``bot`` for good; it keeps the player's name for
        the record. If ``client`` created the table, it stops counting to the client's
        unfinished tables (:meth:`open_tables_of`). Answers ``"kept"``; or, if no player
        holds a seat any more, the table is abandoned: deleted with its seats and
        events (``"abandoned"``). But with ``end`` (``(seq, event)``: a game in play,
        whose next event is number ``seq``) the last player's resignation ends the game
        instead (``"over"``): ``event`` is stored, the table is over with no winner, and
        the seat stays theirs (their token still finds the finished table), so the
        game is kept, with its record. :class:`StaleWrite` if the seat is not held by
        that token (or the table is not at ``seq``)."""
        values: dict[str, Any] = (
            {"token_hash": None, "name": None, "account_id": None, "network_hash": None}
            if bot is None
            else {"kind": "bot", "bot": bot, "token_hash": None}
        )
        with self.db.sessions.begin() as s:
            self._ours(s, table_id)
            if end is not None and not self._held_by_others(s, table_id, seat):
                held = s.scalar(
                    select(func.count()).where(
                        SeatModel.table_id == table_id,
                        SeatModel.seat == seat,
                        SeatModel.kind == "human",
                        SeatModel.token_hash == token_hash,
                    )
                )
                if held != 1:
                    raise StaleWrite(f"seat {seat} of table {table_id} is not held by that token")
                s.execute(
                    update(TableModel)
                    .where(TableModel.id == table_id, TableModel.creator == client)
                    .values(creator=LEFT + client)
                )
                seq, event = end
                self._append(s, table_id, seq, [event], status="over", winner=None)
                return "over"
            r = s.execute(
                update(SeatModel)
                .where(
                    SeatModel.table_id == table_id,
                    SeatModel.seat == seat,
                    SeatModel.kind == "human",
                    SeatModel.token_hash == token_hash,
                )
                .values(**values)
            )
            if r.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWrite(f"seat {seat} of table {table_id} is not held by that token")
            s.execute(
                update(TableModel)
                .where(TableModel.id == table_id, TableModel.creator == client)
                .values(creator=LEFT + client)
            )
            held = s.scalar(  # a stranger waiting for a quick-play bot seat counts too
                select(func.count()).where(
                    SeatModel.table_id == table_id,
                    SeatModel.token_hash.is_not(None),
                )
            )
            if not held:
                s.execute(delete(EventModel).where(EventModel.table_id == table_id))
                s.execute(delete(SeatModel).where(SeatModel.table_id == table_id))
                s.execute(delete(TableModel).where(TableModel.id == table_id))
                # A finished table whose rematch this was may make a new one.
                s.execute(
                    update(TableModel).where(TableModel.rematch == table_id).values(rematch=None)
                )
                return "abandoned"
            s.execute(update(TableModel).where(TableModel.id == table_id).values(updated_at=_now()))
            return "kept"

    @staticmethod
    def _held_by_others(s: Any, table_id: str, seat: int) -> bool:
        """Whether a player (or a stranger waiting for a quick-play bot seat) holds a
        seat of the table other than ``seat``."""
        n = s.scalar(
            select(func.count()).where(
                SeatModel.table_id == table_id,
                SeatModel.seat != seat,
                SeatModel.token_hash.is_not(None),
            )
        )
        return bool(n)

    def claim(
        self,
        table_id: str,
        seat: int,
        *,
        name: str,
        token_hash: str,
        start: EventRow | None = None,
    ) -> None:
        """Give ``seat`` to ``name``; with ``start`` (the first deal) the game starts in
        the same transaction."""
        with self.db.sessions.begin() as s:
            self._ours(s, table_id)
            r = s.execute(
                update(SeatModel)
                .where(
                    SeatModel.table_id == table_id,
                    SeatModel.seat == seat,
                    SeatModel.kind == "human",
                    SeatModel.token_hash.is_(None),
                )
                .values(name=name, token_hash=token_hash)
            )
            if r.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWrite(f"seat {seat} of table {table_id} is not free")
            if start is not None:
                self._append(s, table_id, 0, [start], status="playing", winner=None)

    def _ours(self, s: Any, table_id: str) -> None:
        """Lock the table's row if this instance owns it (or nobody does yet: tables
        from before owners were stored), else :class:`StaleWrite`: a process whose
        table went to another (:mod:`pitch.store.ownership`) changes nothing of it."""
        r = s.execute(
            update(TableModel)
            .where(
                TableModel.id == table_id,
                or_(TableModel.owner.is_(None), TableModel.owner == self.owner),
            )
            .values(owner=self.owner)
        )
        if r.rowcount != 1:
            raise StaleWrite(f"table {table_id} is not served by {self.owner}")

    def append(
        self,
        table_id: str,
        seq: int,
        events: Sequence[EventRow],
        *,
        status: str = "playing",
        winner: int | None = None,
    ) -> None:
        """Store ``events`` as numbers ``seq``, ``seq+1``, ... in one transaction."""
        (err,) = self.writer.append_batch([Append(table_id, seq, events, status, winner)])
        if err is not None:
            raise err

    def _append(
        self,
        s: Any,
        table_id: str,
        seq: int,
        events: Sequence[EventRow],
        *,
        status: str,
        winner: int | None,
    ) -> None:
        now = _now()
        r = s.execute(
            update(TableModel)
            .where(TableModel.id == table_id, TableModel.seq == seq)
            .values(seq=seq + len(events), status=status, winner=winner, updated_at=now)
        )
        if r.rowcount != 1:
            raise StaleWrite(f"table {table_id} is not at event {seq}")
        # Core inserts: this runs when a game starts (actions go through EventWriter).
        s.execute(
            insert(EventModel),
            [
                {
                    "table_id": table_id,
                    "seq": seq + i,
                    "kind": e.kind,
                    "seat": e.seat,
                    "action": e.action,
                    "deal": encode_deal(e.deal) if e.deal is not None else None,
                    "by": e.by,
                    "at": now,
                }
                for i, e in enumerate(events)
            ],
        )

    def load(self, table_id: str, since: int = 0) -> StoredTable | None:
        """The table, with its events from number ``since`` on (a reader that holds
        the ones before reads only what is new)."""
        with self.db.sessions() as s:
            t = s.get(TableModel, table_id)
            if t is None:
                return None
            seats = s.scalars(
                select(SeatModel).where(SeatModel.table_id == table_id).order_by(SeatModel.seat)
            ).all()
            events = s.scalars(
                select(EventModel)
                .where(EventModel.table_id == table_id, EventModel.seq >= since)
                .order_by(EventModel.seq)
            ).all()
            return StoredTable(
                id=t.id,
                created_at=t.created_at,
                rules=dict(t.rules),
                options=dict(t.options),
                first_dealer=t.first_dealer,
                status=t.status,
                winner=t.winner,
                rematch=t.rematch,
                chat=tuple(
                    ChatRow(c.n, c.seat, c.name, c.phrase, c.text)
                    for c in reversed(
                        s.scalars(
                            select(ChatModel)
                            .where(ChatModel.table_id == t.id)
                            .order_by(ChatModel.n.desc())
                            .limit(50)
                        ).all()
                    )
                ),
                chat_count=s.scalar(
                    select(func.count()).select_from(ChatModel).where(ChatModel.table_id == t.id)
                )
                or 0,
                owner=t.owner,
                seats=tuple(SeatRow(x.seat, x.kind, x.bot, x.name, x.token_hash) for x in seats),
                events=tuple(
                    EventRow(
                        kind=e.kind,
                        seat=e.seat,
                        action=e.action,
                        deal=decode_deal(e.deal) if e.deal is not None else None,
                        by=e.by,
                    )
                    for e in events
                ),
                since=since,
            )

    def unfinished(self) -> list[str]:
        """Ids of this process's tables that are not over (to bring back after a
        restart); other processes on the same database restore theirs."""
        with self.db.sessions() as s:
            q = select(TableModel.id).where(
                TableModel.status != "over", TableModel.owner == self.owner
            )
            return list(s.scalars(q).all())

    def games_of(self, name: str, limit: int = 20) -> list[GameSummary]:
        """The most recent *finished* tables where a seat was claimed by ``name``: a
        name is no secret, so tables still open or in play are not shown by it (their
        players find them with their seat tokens: :meth:`games_with_tokens`)."""
        with self.db.sessions() as s:
            rows = s.execute(
                select(TableModel, SeatModel.seat)
                .join(SeatModel, SeatModel.table_id == TableModel.id)
                .where(SeatModel.name == name, TableModel.status == "over")
                .order_by(TableModel.updated_at.desc())
                .limit(limit)
            ).all()
            return self._summaries(s, [(t, seat) for t, seat in rows])

    def games_with_tokens(self, pairs: Sequence[tuple[str, str]]) -> list[GameSummary]:
        """The tables of ``(table id, token hash)`` pairs whose hash is a seat's there,
        newest first: a player's own tables, in any state."""
        if not pairs:
            return []
        want = set(pairs)
        with self.db.sessions() as s:
            rows = s.execute(
                select(TableModel, SeatModel.seat, SeatModel.token_hash)
                .join(SeatModel, SeatModel.table_id == TableModel.id)
                .where(SeatModel.table_id.in_({t for t, _ in pairs}))
                .order_by(TableModel.updated_at.desc())
            ).all()
            return self._summaries(s, [(t, seat) for t, seat, th in rows if (t.id, th) in want])

    @staticmethod
    def _summaries(s: Any, rows: list[tuple[TableModel, int]]) -> list[GameSummary]:
        """One summary per (table, seat), with every table's names read in one query
        (not one query a row)."""
        if not rows:
            return []
        names: dict[str, list[str | None]] = {}
        held: dict[str, list[int]] = {}
        for table_id, seat, name, token_hash in s.execute(
            select(SeatModel.table_id, SeatModel.seat, SeatModel.name, SeatModel.token_hash)
            .where(SeatModel.table_id.in_({t.id for t, _ in rows}))
            .order_by(SeatModel.table_id, SeatModel.seat)
        ):
            names.setdefault(table_id, []).append(name)
            if token_hash is not None:
                held.setdefault(table_id, []).append(seat)
        return [
            GameSummary(
                table_id=t.id,
                seat=seat,
                status=t.status,
                winner=t.winner,
                created_at=t.created_at,
                updated_at=t.updated_at,
                names=tuple(names.get(t.id, ())),
                rules=dict(t.rules),
                held=tuple(held.get(t.id, ())),
            )
            for t, seat in rows
        ]

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store one chat line (its ``n`` is the table's count of lines so far)."""
        with self.db.sessions.begin() as s:
            self._ours(s, table_id)
            s.add(
                ChatModel(
                    table_id=table_id,
                    n=line.n,
                    seat=line.seat,
                    name=line.name,
                    phrase=line.phrase,
                    text=line.text,
                    at=_now(),
                )
            )
