"""Leases, adoption and handoffs between processes on one database, in-process and
quick (docs/deploy.md, "Ownership and failover"); tests/cluster/ does the same with
real processes behind nginx."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from pitch.server.service import ServiceError
from pitch.store import Database
from pitch.store.ownership import Ownership
from tests.support.databases import DBS, db_url
from tests.support.tables import service, started_table


def test_a_lease_taken_anew_cannot_be_renewed_by_the_old_holder(tmp_path: Path) -> None:
    db = Database(db_url("sqlite", tmp_path))
    try:
        old, new = Ownership(db, "a"), Ownership(db, "a")
        old.acquire(5.0)
        assert old.renew(5.0)
        new.acquire(5.0)  # a restart under the same name, the old one stopped
        assert not old.renew(5.0)
        assert new.renew(5.0)
        new.release()
        assert not new.renew(5.0)  # released: it ran out
    finally:
        db.close()


async def _adopt_and_hand_over(db: str) -> None:
    a, b = service(db, "a", lease_seconds=1.0), service(db, "b", lease_seconds=1.0)
    await a.start()
    await b.start()
    try:
        tid = await started_table(a)
        # b is asked for a's table while a is alive (its lease never runs out): a
        # hands it over at a heartbeat.
        t = await b.lifecycle.find(tid, live=True)
        assert tid in b.tables and tid not in a.tables
        assert t.state is not None
        await b.play.apply(
            t, t.state.current_player(), next(iter(t.state.legal_actions())), "player"
        )
        assert t.seq == 2
        # a, asked again, gets it back (the proxy moved it again): never two writers.
        back = await a.lifecycle.find(tid, live=True)
        assert back.seq == 2 and tid not in b.tables
        # A table nobody has is 404, not a wait.
        with pytest.raises(ServiceError) as e:
            await b.lifecycle.find("nosuchtable", live=True)
        assert e.value.status == 404
    finally:
        await a.stop()
        await b.stop()


@pytest.mark.parametrize("kind", DBS)
def test_a_live_owner_hands_its_table_over(kind: str, tmp_path: Path) -> None:
    asyncio.run(_adopt_and_hand_over(db_url(kind, tmp_path)))


async def _lost_lease(db: str) -> None:
    a, b = service(db, "a", lease_seconds=1.0), service(db, "b", lease_seconds=1.0)
    await a.start()
    await b.start()
    try:
        tid = await started_table(a)
        t = a.tables[tid]
        assert t.state is not None
        # a stalls past its lease (as if stopped): it may not write, and b adopts.
        await a.owners.stop()
        a.owners._valid_until = 0.0
        await a.run_db(a.owners.store.release)
        await a.play.apply(
            t, t.state.current_player(), next(iter(t.state.legal_actions())), "player"
        )
        assert t.seq == 1 and a.repo.writer.appended == 0
        moved = await b.lifecycle.find(tid, live=True)
        assert moved.seq == 1
        # a wakes up: its heartbeat finds the lease gone, lets go, takes a new one.
        a.owners.start(
            lost=a.lifecycle.lease_lost, regained=a.lifecycle.resume, asked=a.lifecycle.hand_over
        )
        deadline = time.monotonic() + 5
        while a.owners.lost == 0 or not a.owners.valid():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert tid not in a.tables and tid in b.tables
    finally:
        await a.stop()
        await b.stop()


@pytest.mark.parametrize("kind", DBS)
def test_a_process_that_lost_its_lease_lets_go_and_writes_nothing(
    kind: str, tmp_path: Path
) -> None:
    asyncio.run(_lost_lease(db_url(kind, tmp_path)))
