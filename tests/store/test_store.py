"""The store: migrations match the models; writes are conditional on the event count."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pitch.store import Append, Database, EventRow, StaleWrite, TableRepo, WriterBusy
from pitch.store.models import Base


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "postgresql":
        if not os.environ.get("PITCH_TEST_PG_URL"):
            pytest.skip("PITCH_TEST_PG_URL is not set")
        from tests.support.databases import fresh_pg_database

        return Database(fresh_pg_database())
    return Database(f"sqlite:///{tmp_path / 's.db'}")


def test_migrations_match_the_models(db: Database) -> None:
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    db.migrate()  # a second run is a no-op


def test_each_database_makes_one_client_key_and_erases_the_unkeyed_hashes(
    tmp_path: Path,
) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from pitch.store.db import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Database(url, migrate=False)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with old.engine.begin() as conn:  # a database of before the key (0006)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    TableRepo(old).create(
        table_id="t1", creator="0123456789abcdef", rules={}, options={}, first_dealer=0, seats=[]
    )
    old.migrate()
    with old.engine.connect() as conn:
        assert conn.scalar(text("SELECT creator FROM tables")) == "erased"
    key = TableRepo(old).client_secret()
    old.close()
    again = Database(url)  # another process, or a restart: the same key
    assert TableRepo(again).client_secret() == key and len(key) == 32
    again.close()
    other = Database(f"sqlite:///{tmp_path / 'other.db'}")
    assert TableRepo(other).client_secret() != key
    other.close()


def test_events_round_trip_and_stale_writes_fail(db: Database) -> None:
    repo = TableRepo(db)
    repo.create(
        table_id="t1",
        creator="c",
        rules={"players": 2},
        options={},
        first_dealer=1,
        seats=[("human", None), ("bot", "random")],
    )
    deal = EventRow(kind="deal", deal=(0x3F, 0xFC0), by="server")
    repo.claim("t1", 0, name="ann", token_hash="h" * 64, start=deal)
    with pytest.raises(StaleWrite):
        repo.claim("t1", 0, name="eve", token_hash="e" * 64)
    repo.append("t1", 1, [EventRow(kind="action", seat=0, action=52)])
    with pytest.raises(StaleWrite):  # a second writer at the same point loses
        repo.append("t1", 1, [EventRow(kind="action", seat=0, action=53)])
    st = repo.load("t1")
    assert st is not None
    assert st.events == (deal, EventRow(kind="action", seat=0, action=52))
    assert st.seats[0].name == "ann" and st.status == "playing"
    assert repo.unfinished() == ["t1"]
    # A name finds finished games only; the seat's token finds it in any state.
    assert repo.games_of("ann") == []
    assert [g.table_id for g in repo.games_with_tokens([("t1", "h" * 64)])] == ["t1"]
    assert repo.games_with_tokens([("t1", "e" * 64), ("t2", "h" * 64)]) == []
    assert repo.open_tables_of("c") == (1, 1)


def test_a_writer_that_may_not_wait_gives_way_to_a_held_write_lock(tmp_path: Path) -> None:
    """SQLite commits on the event loop must never block it: with another connection
    holding the write lock the append is refused at once (and stored nothing); waiting
    (on the database thread) stores it."""
    db = Database(f"sqlite:///{tmp_path / 'w.db'}")
    repo = TableRepo(db)
    repo.create(
        table_id="t1", creator="c", rules={}, options={}, first_dealer=0, seats=[("human", None)]
    )
    a = Append("t1", 0, [EventRow(kind="action", seat=0, action=52)])
    with db.engine.connect() as other:
        other.exec_driver_sql("BEGIN IMMEDIATE")  # takes the write lock
        with pytest.raises(WriterBusy):
            repo.writer.append_batch([a], wait=False)
        other.rollback()
    st = repo.load("t1")
    assert st is not None and st.events == ()
    assert repo.writer.append_batch([a], wait=False) == [None]
    stale = repo.writer.append_batch([a, Append("t1", 1, [EventRow(kind="deal", deal=(1,))])])
    assert isinstance(stale[0], StaleWrite) and stale[1] is None  # one stale, one stored
    repo.writer.checkpoint()
    st = repo.load("t1")
    assert st is not None and [e.kind for e in st.events] == ["action", "deal"]


def test_an_append_survives_the_database_closing_the_writers_connection() -> None:
    """PostgreSQL closes the writer's connection (as a restart, an idle timeout or a
    failover does): the next append is tried once more on a new connection, and is
    stored, where before it failed and the player was told to try again."""
    if not os.environ.get("PITCH_TEST_PG_URL"):
        pytest.skip("PITCH_TEST_PG_URL is not set")
    from tests.support.databases import fresh_pg_database

    db = Database(fresh_pg_database())
    repo = TableRepo(db)
    repo.create(
        table_id="t1", creator="c", rules={}, options={}, first_dealer=0, seats=[("human", None)]
    )
    first = Append("t1", 0, [EventRow(kind="action", seat=0, action=52)])
    assert repo.writer.append_batch([first]) == [None]
    with db.engine.connect() as other:  # end the writer's session from outside
        ended = other.exec_driver_sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).all()
    assert ended and all(row[0] for row in ended)
    second = Append("t1", 1, [EventRow(kind="action", seat=0, action=53)])
    assert repo.writer.append_batch([second]) == [None]
    st = repo.load("t1")
    assert st is not None and [e.action for e in st.events] == [52, 53]


def test_a_writer_that_may_not_wait_does_not_wait_when_it_tries_again(tmp_path: Path) -> None:
    """A commit on the event loop (``wait=False``) that fails for another reason is
    tried again on a new connection: that try must not wait for a write lock either
    (before, it waited up to 5 s, and every table with it). Here the lock is let go
    after 0.5 s: a waiting retry would get it and store the append."""
    import threading

    db = Database(f"sqlite:///{tmp_path / 'w.db'}")
    repo = TableRepo(db)
    repo.create(
        table_id="t1", creator="c", rules={}, options={}, first_dealer=0, seats=[("human", None)]
    )
    a = Append("t1", 0, [EventRow(kind="action", seat=0, action=52)])
    w = repo.writer
    run, failed = w._run, []

    def fails_once(batch: list[Append]) -> list[BaseException | None]:
        if not failed:
            failed.append(True)
            w._discard()  # as a failed commit does: the retry opens a new connection
            raise OSError("the connection was closed")
        return run(batch)

    w._run = fails_once  # type: ignore[method-assign,assignment]
    with db.engine.connect() as other:
        other.exec_driver_sql("BEGIN IMMEDIATE")  # takes the write lock
        threading.Timer(0.5, other.rollback).start()
        out = w.append_batch([a], wait=False)
    assert failed and len(out) == 1 and out[0] is not None  # refused, not waited for
    st = repo.load("t1")
    assert st is not None and st.events == ()


def test_game_lists_read_every_tables_names_in_one_query(db: Database) -> None:
    from sqlalchemy import event

    repo = TableRepo(db)
    pairs = []
    for i in range(6):
        tid = f"t{i}"
        repo.create(
            table_id=tid,
            creator="c",
            rules={"players": 3},
            options={},
            first_dealer=0,
            seats=[("human", None), ("human", None), ("bot", "random")],
        )
        repo.claim(tid, 0, name="ann", token_hash=f"{i}" * 64)
        repo.claim(tid, 1, name=f"bob{i}", token_hash="b" * 64)
        pairs.append((tid, f"{i}" * 64))
    statements: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        games = repo.games_with_tokens(pairs)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert sorted(g.table_id for g in games) == [f"t{i}" for i in range(6)]
    assert {g.names for g in games} == {("ann", f"bob{i}", None) for i in range(6)}
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 2, selects  # the tables, then all their names (was 1 + 6)
