"""The hot write path: appending events, one transaction per batch of tables.

Every accepted action is one :class:`Append`. Going through SQLAlchemy's session or
even Core execution costs ~1 ms of CPU per action (statement caching, result objects,
pool check-out and reset); the same two statements on the driver's own connection
cost a few dozen microseconds. So the statements are compiled once by SQLAlchemy (for
this database's dialect and parameter style) and run on one DBAPI connection that the
writer keeps. :meth:`EventWriter.append_batch` stores several tables' appends in one
transaction (group commit): under load the appends that arrive while one commit is
in flight share the next one.

Not thread-safe: call it from one thread at a time (the server's database thread).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, bindparam, insert, or_, update
from sqlalchemy.engine import Compiled
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.compiler import SQLCompiler

from pitch.store.db import Database
from pitch.store.models import EventModel, TableModel

log = logging.getLogger("pitch.store")


class StaleWrite(RuntimeError):
    """The table moved on (or was claimed) since the caller read it."""


class WriterBusy(RuntimeError):
    """SQLite: another connection holds the write lock and the caller would not wait.
    Nothing was stored; try again with ``wait=True`` (on a thread that may block)."""


@dataclass(frozen=True, slots=True)
class EventRow:
    """One stored event: a deal (``deal`` masks) or an action (``seat``, ``action``)."""

    kind: str
    seat: int | None = None
    action: int | None = None
    deal: tuple[int, ...] | None = None
    by: str = "player"


@dataclass(frozen=True, slots=True)
class Append:
    """Store ``events`` as numbers ``seq``, ``seq+1``, ... of table ``table_id``, if the
    table is still at ``seq`` (else :class:`StaleWrite`), and set its status."""

    table_id: str
    seq: int
    events: Sequence[EventRow]
    status: str = "playing"
    winner: int | None = None


def _is_busy(e: BaseException) -> bool:
    return "database is locked" in str(e) or "database is busy" in str(e)


def encode_deal(masks: Sequence[int]) -> str:
    return " ".join(f"{m:x}" for m in masks)


def decode_deal(text: str) -> tuple[int, ...]:
    return tuple(int(x, 16) for x in text.split())


class _Statement:
    """A statement compiled once; :meth:`params` orders a dict for the driver."""

    def __init__(self, compiled: Compiled) -> None:
        assert isinstance(compiled, SQLCompiler)
        self.sql = str(compiled)
        order = compiled.positiontup or []
        self.names: list[str] | None = list(order) if compiled.positional else None

    def params(self, values: dict[str, Any]) -> Any:
        if self.names is None:
            return values
        return tuple(values[n] for n in self.names)


class EventWriter:
    def __init__(self, db: Database, *, owner: str = "default") -> None:
        self.db = db
        self.owner = owner
        dialect = db.engine.dialect
        # Conditional on the count (a stale copy fails) and on the owner: a process
        # whose table was adopted or handed over (pitch.store.ownership) cannot write.
        # (No owner: nobody ever claimed a seat there, so no other process plays it.)
        where = update(TableModel).where(
            TableModel.id == bindparam("p_id"),
            TableModel.seq == bindparam("p_old"),
            or_(TableModel.owner == bindparam("p_me"), TableModel.owner.is_(None)),
        )
        self._update = _Statement(
            where.values(
                seq=bindparam("p_new"),
                status=bindparam("p_status"),
                winner=bindparam("p_winner"),
                updated_at=bindparam("p_now"),
            ).compile(dialect=dialect)
        )
        # Most appends change only the count: leaving the indexed column (status) out
        # of the statement spares SQLite rewriting its index entries.
        self._update_seq = _Statement(
            where.values(seq=bindparam("p_new"), updated_at=bindparam("p_now")).compile(
                dialect=dialect
            )
        )
        self._owned: set[str] = set()
        """Tables whose stored status this writer knows is ``playing`` already."""
        self._insert = _Statement(
            insert(EventModel)
            .values(
                table_id=bindparam("p_id"),
                seq=bindparam("p_seq"),
                kind=bindparam("p_kind"),
                seat=bindparam("p_seat"),
                action=bindparam("p_action"),
                deal=bindparam("p_deal"),
                by=bindparam("p_by"),
                at=bindparam("p_now"),
            )
            .compile(dialect=dialect)
        )
        # Datetimes as SQLAlchemy itself would bind them (SQLite stores text), so that
        # the ORM reads back what the writer wrote.
        proc = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self._time: Callable[[datetime], Any] = proc if proc is not None else (lambda d: d)
        self._conn: PoolProxiedConnection | None = None
        self._waits = True
        """SQLite: whether the connection waits for a busy write lock (busy_timeout)."""
        self.commits = 0
        self.appended = 0
        """Appends stored (a stale one, refused by the store, does not count)."""

    def _connection(self) -> PoolProxiedConnection:
        if self._conn is None:
            self._conn = self.db.engine.raw_connection()
            self._waits = True
            if self.db.is_sqlite:
                # Commits may run on the server's event loop: never checkpoint there
                # (a checkpoint syncs the disk); :meth:`checkpoint` does it elsewhere.
                cur = self._conn.cursor()
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.close()
        return self._conn

    def _set_wait(self, conn: PoolProxiedConnection, wait: bool) -> None:
        if wait != self._waits and self.db.is_sqlite:
            cur = conn.cursor()
            cur.execute(f"PRAGMA busy_timeout={5000 if wait else 0}")
            cur.close()
            self._waits = wait

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database (PASSIVE: never blocks
        writers), on a connection of its own. Call it now and then, off the loop."""
        if not self.db.is_sqlite:
            return
        with self.db.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def append_batch(
        self, batch: Sequence[Append], *, wait: bool = True
    ) -> list[BaseException | None]:
        """Store every append of ``batch`` in one transaction. Answers, per append,
        ``None`` (stored) or the error (:class:`StaleWrite`, or what the database
        raised). A stale append does not stop the others; if the transaction itself
        fails, each append (a lone one too) is tried once more in a transaction of its
        own, on a new connection.

        ``wait=False`` (SQLite): if another connection holds the write lock, raise
        :class:`WriterBusy` at once instead of waiting for it."""
        try:
            self._set_wait(self._connection(), wait)
            return self._run(batch)
        except Exception as e:
            if not wait and _is_busy(e):
                raise WriterBusy(str(e)) from e
            # Each once more, in a transaction of its own, on a fresh connection: the
            # usual failure is a connection the database closed (a restart, an idle
            # timeout, a failover), and the conditional write makes a second try safe
            # even if the first landed (it answers StaleWrite then).
            log.warning("a commit of %d appends failed (%s); each once more", len(batch), e)
            out: list[BaseException | None] = []
            try:  # on the event loop (``wait=False``) the new connection must not wait either
                self._set_wait(self._connection(), wait)
            except Exception as e1:
                return [e1] * len(batch)
            for a in batch:
                try:
                    out += self._run([a])
                except Exception as e1:
                    out.append(e1)
            return out

    def _run(self, batch: Sequence[Append]) -> list[BaseException | None]:
        conn = self._connection()
        now = self._time(datetime.now(UTC))
        out: list[BaseException | None] = []
        try:
            cur = conn.cursor()
            try:
                for a in batch:
                    values = {
                        "p_id": a.table_id,
                        "p_old": a.seq,
                        "p_new": a.seq + len(a.events),
                        "p_now": now,
                        "p_me": self.owner,
                    }
                    lean = a.status == "playing" and a.table_id in self._owned
                    if lean:
                        cur.execute(self._update_seq.sql, self._update_seq.params(values))
                    else:
                        values.update(p_status=a.status, p_winner=a.winner)
                        cur.execute(self._update.sql, self._update.params(values))
                    if cur.rowcount != 1:  # nothing written for this table: skip it
                        # (Another process may own it now: claim it again next time.)
                        self._owned.discard(a.table_id)
                        out.append(
                            StaleWrite(f"table {a.table_id} is not at event {a.seq} or not ours")
                        )
                        continue
                    if a.status == "playing":
                        self._owned.add(a.table_id)
                    else:
                        self._owned.discard(a.table_id)
                    cur.executemany(
                        self._insert.sql,
                        [
                            self._insert.params(
                                {
                                    "p_id": a.table_id,
                                    "p_seq": a.seq + i,
                                    "p_kind": e.kind,
                                    "p_seat": e.seat,
                                    "p_action": e.action,
                                    "p_deal": encode_deal(e.deal) if e.deal is not None else None,
                                    "p_by": e.by,
                                    "p_now": now,
                                }
                            )
                            for i, e in enumerate(a.events)
                        ],
                    )
                    out.append(None)
            finally:
                cur.close()
            conn.commit()
            self.commits += 1
            self.appended += out.count(None)
        except BaseException:
            self._discard()
            for a in batch:  # their owner may not have been stored
                self._owned.discard(a.table_id)
            raise
        return out

    def _discard(self) -> None:
        """After a failure: roll back and drop the connection (it may be broken; the
        next append opens a fresh one)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            conn.rollback()
        with contextlib.suppress(Exception):
            conn.invalidate()

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
