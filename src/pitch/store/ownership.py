"""Who serves which table when several processes share one database.

Each process holds a *lease* on its instance name (a row of ``instances``), renewed
by heartbeat; a table belongs to the instance named in its ``owner`` column. A table
whose owner's lease has run out is *adopted* by the first live process that is asked
for it: one conditional ``UPDATE`` of ``owner``, so two adopters cannot both win. A
table whose owner is alive is asked for with a *handoff* row, which the owner
answers at its next heartbeat by letting go of the table and naming the asker its
owner. Every write of an action is conditional on ``owner`` (:class:`EventWriter`),
so a process that lost a table cannot write to it again.

Times are the database's clock (seconds since the epoch), never the processes':
machines whose clocks disagree still agree on who holds a lease.
"""

from __future__ import annotations

import secrets

from sqlalchemy import ColumnElement, Float, delete, literal_column, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from pitch.store.db import Database
from pitch.store.models import HandoffModel, InstanceModel, TableModel


class Ownership:
    """The database side of leases and handoffs (each method one short transaction)."""

    def __init__(self, db: Database, instance: str) -> None:
        self.db = db
        self.instance = instance
        self.token = ""
        """This process's lease (empty until :meth:`acquire`)."""
        self._insert = sqlite_insert if db.is_sqlite else pg_insert

    def now(self) -> ColumnElement[float]:
        """The database's clock, in seconds since the epoch."""
        if self.db.is_sqlite:
            return literal_column("((julianday('now') - 2440587.5) * 86400.0)", Float)
        return literal_column("extract(epoch from clock_timestamp())", Float)

    def acquire(self, ttl: float) -> None:
        """Take this instance's lease under a new token, whoever held it: only one
        process per name gets this far (:class:`~pitch.store.InstanceLease`), so a
        row still running is a dead or stopped predecessor's."""
        token = secrets.token_hex(16)
        now = self.now()
        ins = self._insert(InstanceModel).values(
            name=self.instance, token=token, expires_at=now + ttl, started_at=now
        )
        stmt = ins.on_conflict_do_update(
            index_elements=[InstanceModel.name],
            set_={"token": token, "expires_at": now + ttl, "started_at": now},
        )
        with self.db.sessions.begin() as s:
            s.execute(stmt)
        self.token = token

    def renew(self, ttl: float) -> bool:
        """Push the lease ``ttl`` seconds ahead; ``False`` if it ran out or another
        process took it meanwhile (this process must then let go of every table)."""
        now = self.now()
        with self.db.sessions.begin() as s:
            r = s.execute(
                update(InstanceModel)
                .where(
                    InstanceModel.name == self.instance,
                    InstanceModel.token == self.token,
                    InstanceModel.expires_at > now,
                )
                .values(expires_at=now + ttl)
            )
            return bool(r.rowcount == 1)  # type: ignore[attr-defined]

    def release(self) -> None:
        """End the lease now (a clean stop): others may adopt the tables at once."""
        with self.db.sessions.begin() as s:
            s.execute(
                update(InstanceModel)
                .where(InstanceModel.name == self.instance, InstanceModel.token == self.token)
                .values(expires_at=0.0)
            )

    def adopt(self, table_id: str) -> tuple[str | None, float, bool]:
        """Make the table this instance's if it has no owner, is ours already, or its
        owner's lease ran out. Answers the owner afterwards (``None``: no such table),
        the seconds its lease has left (0 when it is ours), and whether it had no
        owner before (then nobody ever changed it after creating it)."""
        live = select(InstanceModel.name).where(InstanceModel.expires_at > self.now())
        with self.db.sessions.begin() as s:
            before = s.execute(select(TableModel.owner).where(TableModel.id == table_id)).first()
            s.execute(
                update(TableModel)
                .where(
                    TableModel.id == table_id,
                    or_(
                        TableModel.owner.is_(None),
                        TableModel.owner == self.instance,
                        TableModel.owner.not_in(live.scalar_subquery()),
                    ),
                )
                .values(owner=self.instance)
            )
            owner = s.scalar(select(TableModel.owner).where(TableModel.id == table_id))
            unowned = before is not None and before[0] is None
            if owner is None or owner == self.instance:
                return owner, 0.0, unowned
            left = s.scalar(
                select(InstanceModel.expires_at - self.now()).where(InstanceModel.name == owner)
            )
            return owner, max(0.0, float(left or 0.0)), False

    def leases_left(self) -> dict[str, float]:
        """Seconds each instance's lease has left by the database's clock (below 0:
        it ran out), for a supervisor deciding whether a silent process is dead."""
        with self.db.sessions() as s:
            rows = s.execute(select(InstanceModel.name, InstanceModel.expires_at - self.now()))
            return {name: float(left) for name, left in rows}

    def ask(self, table_id: str) -> None:
        """Ask the table's live owner to hand it over (the last asker wins)."""
        stmt = self._insert(HandoffModel).values(
            table_id=table_id, wanted_by=self.instance, asked_at=self.now()
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=[HandoffModel.table_id],
            set_={"wanted_by": self.instance, "asked_at": self.now()},
        )
        with self.db.sessions.begin() as s:
            s.execute(stmt)

    def asked(self) -> list[tuple[str, str]]:
        """``(table id, asker)`` of this instance's tables that others asked for."""
        with self.db.sessions() as s:
            rows = s.execute(
                select(HandoffModel.table_id, HandoffModel.wanted_by)
                .join(TableModel, TableModel.id == HandoffModel.table_id)
                .where(TableModel.owner == self.instance, HandoffModel.wanted_by != self.instance)
            ).all()
            return [(t, w) for t, w in rows]

    def hand_over(self, table_id: str, to: str) -> bool:
        """Name ``to`` the owner of a table of ours (call once it is out of memory)."""
        with self.db.sessions.begin() as s:
            r = s.execute(
                update(TableModel)
                .where(TableModel.id == table_id, TableModel.owner == self.instance)
                .values(owner=to)
            )
            s.execute(delete(HandoffModel).where(HandoffModel.table_id == table_id))
            return bool(r.rowcount == 1)  # type: ignore[attr-defined]
