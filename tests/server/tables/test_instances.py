"""Several server processes on one database: each restores only the tables it served
(docs/server.md, "Several processes")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pitch.server.kernel.schemas import CreateTable
from tests.support.databases import DBS, db_url
from tests.support.tables import service, started_table


async def _scenario(db: str) -> None:
    a, b = service(db, "a"), service(db, "b")
    mine_a = [await started_table(a) for _ in range(2)]
    mine_b = [await started_table(b) for _ in range(3)]
    waiting = (await a.lifecycle.create(CreateTable(), "client")).id  # nobody served it yet
    moved = mine_a.pop()
    # While a holds its lease, b may read a's table but not write to it (the store
    # refuses: the write is conditional on the owner), and b's stale copy goes.
    t = await b.lifecycle.find(moved)
    assert t.state is not None
    await b.play.apply(t, t.state.current_player(), next(iter(t.state.legal_actions())), "player")
    assert t.seq == 1 and moved not in b.cache
    await a.stop()  # a clean stop ends a's lease at once
    # b serves the table from now on (the balancer moved it): b adopts it.
    t = await b.lifecycle.find(moved, live=True)
    assert t.state is not None
    await b.play.apply(t, t.state.current_player(), next(iter(t.state.legal_actions())), "player")
    assert t.seq == 2
    mine_b.append(moved)
    await b.stop()

    # Both restart (as after kill -9: nothing but the database survives).
    a2, b2 = service(db, "a"), service(db, "b")
    await a2.start()
    await b2.start()
    try:
        assert sorted(a2.tables) == sorted(mine_a)
        assert sorted(b2.tables) == sorted(mine_b)
        assert b2.tables[moved].seq == 2  # the deal and the action
        # Any table still loads on first use, wherever it is asked for.
        assert (await a2.lifecycle.find(waiting)).status == "waiting"
    finally:
        await a2.stop()
        await b2.stop()


@pytest.mark.parametrize("kind", DBS)
def test_each_process_restores_only_its_own_tables(kind: str, tmp_path: Path) -> None:
    asyncio.run(_scenario(db_url(kind, tmp_path)))
