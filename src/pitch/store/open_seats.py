"""Quick play's seats in the store: bot seats that a stranger may take over.

At a quick-play table (its options say ``quick``) every bot seat that no player ever
held (no name) is open. A stranger's claim puts their name and token hash on the bot
seat; the bot plays on until the hand ends, then the seat becomes theirs
(:meth:`OpenSeats.arrive`: kind ``human``; ``bot`` keeps the spec it replaced, for the
record). Every step is one conditional UPDATE, so two processes (or two clicks) can
never give one seat to two people. The search reads the database, not one process's
memory, so it finds tables served by any process.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, func, select, update

from pitch.store.db import Database
from pitch.store.models import EventModel, SeatModel, TableModel
from pitch.store.repo import QUICK_ACTIVE, TableRepo, _aware
from pitch.store.writer import StaleWrite

ACTIVE = QUICK_ACTIVE
"""A table that stored nothing for this long no longer counts as its maker's."""
OFFERED = timedelta(seconds=150)
"""A table that stored nothing for this long is not offered to strangers. While anyone
has a quick-play table open it stores a move at least every turn (its turn timer,
``quickplay.TURN_SECONDS``, 60 s); one that stood still longer is a game nobody is at
(its player walked away, and a table nobody has open does not move): a newcomer sent
there sat in a stranger's abandoned game, beside an away player."""


FRESH, BETWEEN, MID_HAND = 0, 1, 2
"""How far a game is, in the order quick play offers it (:func:`stage`)."""


def stage(seq: int, last_kind: str | None) -> int:
    """A playing table's stage from what it stored: ``FRESH`` when its only event is
    the first deal (nobody has bid), ``BETWEEN`` hands when its last event is a deal
    (stored with the move that ended the hand before: nothing bid in the new one),
    else ``MID_HAND``. A stranger's claim is theirs at once in the first two, and waits
    for the hand's end in the last (``quickplay.between_hands`` decides, in memory)."""
    if seq <= 1:
        return FRESH
    return BETWEEN if last_kind == "deal" else MID_HAND


class OpenSeats:
    def __init__(self, repo: TableRepo) -> None:
        self.repo = repo
        self.db: Database = repo.db

    def find(
        self,
        rules: dict[str, Any],
        bot: str,
        *,
        avoid: Collection[str] = (),
        limit: int = 20,
        rated: bool = False,
    ) -> list[str]:
        """Ids of active quick-play tables with these rules and an open seat held by
        ``bot``: first games nobody has bid in yet, then games between hands (the next
        hand dealt, nothing bid in it), and only then games in mid-hand, where the
        newcomer would watch a bot play the hand out (:func:`stage`); in each, the
        ones with the most people first (fewest open seats). A rated game is offered
        only to those who asked for one, and a casual one only to the others."""
        since = datetime.now(UTC) - OFFERED
        with self.db.sessions() as s:
            # Count open seats per table first: PostgreSQL cannot group by JSON columns.
            counts = s.execute(
                select(SeatModel.table_id, func.count())
                .join(TableModel, SeatModel.table_id == TableModel.id)
                .where(
                    TableModel.status == "playing",
                    TableModel.updated_at >= since,
                    SeatModel.kind == "bot",
                    SeatModel.bot == bot,
                    SeatModel.name.is_(None),
                    SeatModel.token_hash.is_(None),
                )
                .group_by(SeatModel.table_id)
                .order_by(func.max(TableModel.updated_at).desc())
                .limit(200)
            ).all()
            open_seats = {tid: int(n) for tid, n in counts if tid not in avoid}
            # With each table, its last stored event (events are numbered from 0).
            last = and_(EventModel.table_id == TableModel.id, EventModel.seq == TableModel.seq - 1)
            rows = s.execute(
                select(
                    TableModel.id,
                    TableModel.rules,
                    TableModel.options,
                    TableModel.seq,
                    EventModel.kind,
                )
                .outerjoin(EventModel, last)
                .where(TableModel.id.in_(open_seats))
            ).all()
        found = sorted(
            (stage(seq, kind), open_seats[tid], tid)
            for tid, r, o, seq, kind in rows
            if (o or {}).get("quick") and r == rules and bool((o or {}).get("rated")) == rated
        )
        return [tid for *_, tid in found[:limit]]

    def people(self, table_ids: Collection[str]) -> dict[str, tuple[datetime, frozenset[int]]]:
        """For each of these tables: when it was made (since then it has been open to
        strangers) and the accounts holding its seats (signed-in players, and a
        stranger's claim on a bot seat), for quick play by rating."""
        ids = list(table_ids)[:200]
        if not ids:
            return {}
        with self.db.sessions() as s:
            made = dict(
                s.execute(
                    select(TableModel.id, TableModel.created_at).where(TableModel.id.in_(ids))
                ).all()
            )
            held: dict[str, set[int]] = {tid: set() for tid in made}
            for tid, account in s.execute(
                select(SeatModel.table_id, SeatModel.account_id).where(
                    SeatModel.table_id.in_(ids), SeatModel.account_id.is_not(None)
                )
            ):
                if account is not None:
                    held[tid].add(account)
        return {tid: (_aware(at), frozenset(held[tid])) for tid, at in made.items()}

    def take(self, table_id: str, seat: int, *, name: str, token_hash: str) -> None:
        """Put a stranger's claim on open bot seat ``seat``; :class:`StaleWrite` if it
        is not open any more."""
        self._update(
            table_id,
            seat,
            (SeatModel.name.is_(None), SeatModel.token_hash.is_(None)),
            {"name": name, "token_hash": token_hash},
            "is not open",
        )

    def arrive(self, table_id: str, seat: int) -> None:
        """The claimed bot seat becomes the claimant's (between hands)."""
        self._update(table_id, seat, (SeatModel.token_hash.is_not(None),), {"kind": "human"}, "")

    def drop(self, table_id: str, seat: int, *, token_hash: str) -> None:
        """The claimant changed their mind before the seat was theirs: open again."""
        self._update(
            table_id,
            seat,
            (SeatModel.token_hash == token_hash,),
            {"name": None, "token_hash": None, "account_id": None, "network_hash": None},
            "is not held by that token",
        )

    def _update(
        self,
        table_id: str,
        seat: int,
        where: tuple[ColumnElement[bool], ...],
        values: dict[str, Any],
        refused: str,
    ) -> None:
        """One conditional UPDATE of a bot seat; with ``refused``, :class:`StaleWrite`
        (saying so) when no row matched."""
        with self.db.sessions.begin() as s:
            self.repo._ours(s, table_id)  # a process that lost the table changes nothing
            r = s.execute(
                update(SeatModel)
                .where(
                    SeatModel.table_id == table_id,
                    SeatModel.seat == seat,
                    SeatModel.kind == "bot",
                    *where,
                )
                .values(**values)
            )
            if refused and r.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWrite(f"seat {seat} of table {table_id} {refused}")
