"""``pitch db backup`` / ``pitch db restore``: the whole database, and every refusal
leaves nothing changed and nothing half-written (the round trip under a playing server
is tests/server/test_backup_load.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from typer.testing import CliRunner

from pitch.cli.main import app
from pitch.store import Database, InstanceLease
from pitch.store.db import MIGRATIONS
from pitch.store.ownership import Ownership
from tests.support.databases import PG_URL, fresh_pg_database

runner = CliRunner()


def pitch_db(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["db", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def make_db(url: str, rows: int = 3) -> None:
    """A pitch database with a table no code of pitch knows (as one added later
    would be): a backup copies whatever tables there are."""
    db = Database(url)
    with db.engine.begin() as conn:
        conn.execute(text("CREATE TABLE later_feature (id INTEGER PRIMARY KEY, note TEXT)"))
        for i in range(rows):
            conn.execute(text("INSERT INTO later_feature VALUES (:i, :n)"), {"i": i, "n": f"n{i}"})
    db.close()


def notes(url: str) -> list[str]:
    db = Database(url, migrate=False)
    try:
        with db.engine.connect() as conn:
            return [r[0] for r in conn.execute(text("SELECT note FROM later_feature ORDER BY id"))]
    finally:
        db.close()


def files(d: Path) -> set[str]:
    return {p.name for p in d.iterdir()}


def sqlite_url(p: Path) -> str:
    return f"sqlite:///{p}"


def test_sqlite_round_trip_keeps_every_table_and_the_replaced_file(tmp_path: Path) -> None:
    src, dest = tmp_path / "live.db", tmp_path / "other" / "pitch.db"
    dest.parent.mkdir()
    make_db(sqlite_url(src), rows=5)
    make_db(sqlite_url(dest), rows=1)  # the database a restore replaces
    code, out = pitch_db("backup", str(tmp_path / "b.db"), "--db", sqlite_url(src))
    assert code == 0, out
    with sqlite3.connect(tmp_path / "b.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
    assert not (tmp_path / "b.db-wal").exists()

    code, out = pitch_db("restore", str(tmp_path / "b.db"), "--db", sqlite_url(dest))
    assert code == 0, out
    assert notes(sqlite_url(dest)) == [f"n{i}" for i in range(5)]
    (bak,) = [p for p in dest.parent.iterdir() if p.name.startswith("pitch.db.bak-")]
    assert notes(sqlite_url(bak)) == ["n0"]
    assert bak.name in out
    # Nothing but the database, its backup and what SQLite keeps beside a WAL file.
    assert files(dest.parent) - {"pitch.db-wal", "pitch.db-shm"} == {"pitch.db", bak.name}


def test_restore_into_a_new_path(tmp_path: Path) -> None:
    make_db(sqlite_url(tmp_path / "a.db"))
    assert pitch_db("backup", str(tmp_path / "b.db"), "--db", sqlite_url(tmp_path / "a.db"))[0] == 0
    fresh = tmp_path / "new" / "pitch.db"
    fresh.parent.mkdir()
    code, out = pitch_db("restore", str(tmp_path / "b.db"), "--db", sqlite_url(fresh))
    assert code == 0, out
    assert notes(sqlite_url(fresh)) == ["n0", "n1", "n2"]
    assert "kept as" not in out


def test_restore_upgrades_an_older_backup_and_releases_its_leases(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    db = Database(sqlite_url(old), migrate=False)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
        conn.execute(
            text("INSERT INTO instances VALUES ('gone', 't', 1e12, 0)")  # live "for ever"
        )
    db.close()
    target = tmp_path / "pitch.db"
    code, out = pitch_db("restore", str(old), "--db", sqlite_url(target))
    assert code == 0, out
    assert "from schema revision 0006" in out
    with sqlite3.connect(target) as conn:
        head = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        assert head != "0006"
        assert conn.execute("SELECT expires_at FROM instances").fetchall() == [(0.0,)]


def _refused(tmp_path: Path, args: list[str], message: str) -> None:
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    code, out = pitch_db(*args)
    assert code == 2, out
    assert message in out, out
    after = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before  # nothing written, nothing changed, no temp file left


def test_bad_backups_are_refused_with_nothing_changed(tmp_path: Path) -> None:
    target = tmp_path / "pitch.db"
    make_db(sqlite_url(target))
    with sqlite3.connect(target) as conn:  # one file, so "nothing changed" is its bytes
        conn.execute("PRAGMA journal_mode=DELETE")
    db = ["--db", sqlite_url(target)]
    _refused(tmp_path, ["restore", str(tmp_path / "missing.db"), *db], "no backup at")
    (tmp_path / "notes.txt").write_text("not a database at all\n" * 100)
    _refused(tmp_path, ["restore", str(tmp_path / "notes.txt"), *db], "is not a SQLite database")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    _refused(tmp_path, ["restore", str(other), *db], "is not a pitch database")
    newer = tmp_path / "newer.db"
    make_db(sqlite_url(newer))
    conn = sqlite3.connect(newer, isolation_level=None)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    _refused(tmp_path, ["restore", str(newer), *db], "revision '9999', which this pitch does not")
    _refused(tmp_path, ["restore", str(target), *db], "is the database itself")
    # Root may write anywhere but where the kernel says no.
    _refused(tmp_path, ["restore", str(target), "--db", "sqlite:////proc/pitch.db"], "cannot write")
    stray = tmp_path / "gone.db"
    Path(f"{stray}-wal").write_bytes(b"a log of a database deleted by hand")
    _refused(tmp_path, ["restore", str(target), "--db", sqlite_url(stray)], "without its database")


def test_bad_backup_targets_are_refused_with_nothing_written(tmp_path: Path) -> None:
    live = tmp_path / "pitch.db"
    make_db(sqlite_url(live))
    with sqlite3.connect(live) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    db = ["--db", sqlite_url(live)]
    _refused(
        tmp_path,
        ["backup", str(tmp_path / "b.db"), "--db", sqlite_url(tmp_path / "no.db")],
        "no database at",
    )
    _refused(tmp_path, ["backup", str(tmp_path / "pitch.db" / "b.db"), *db], "no directory")
    _refused(tmp_path, ["backup", str(tmp_path / "nowhere" / "b.db"), *db], "no directory")
    # Root may write anywhere but where the kernel says no.
    _refused(tmp_path, ["backup", "/proc/pitch-backup.db", *db], "cannot write the backup")
    (tmp_path / "b.db").write_text("an older backup")
    _refused(tmp_path, ["backup", str(tmp_path / "b.db"), *db], "exists already")
    assert pitch_db("backup", str(tmp_path / "b.db"), "--force", *db)[0] == 0
    _refused(tmp_path, ["backup", str(live), "--force", *db], "is the database itself")


def test_backup_copies_a_newer_pitchs_database_that_restore_refuses(tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    make_db(sqlite_url(newer))
    conn = sqlite3.connect(newer, isolation_level=None)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    code, out = pitch_db("backup", str(tmp_path / "b.db"), "--db", sqlite_url(newer))
    assert code == 0 and "revision 9999" in out, out
    code, out = pitch_db("restore", str(tmp_path / "b.db"), "--db", sqlite_url(tmp_path / "x.db"))
    assert code == 2 and "does not know" in out, out
    assert not (tmp_path / "x.db").exists()


def test_backup_of_another_programs_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    _refused(
        tmp_path,
        ["backup", str(tmp_path / "b.db"), "--db", sqlite_url(other)],
        "is not a pitch database",
    )


def test_restore_refuses_while_a_server_holds_the_database(tmp_path: Path) -> None:
    target = tmp_path / "pitch.db"
    make_db(sqlite_url(target), rows=1)
    backup = tmp_path / "b.db"
    make_db(sqlite_url(backup), rows=4)
    args = ["restore", str(backup), "--db", sqlite_url(target)]

    db = Database(sqlite_url(target))
    lease = InstanceLease(db, "east")  # what a running `pitch serve` holds
    lease.acquire()
    try:
        code, out = pitch_db(*args)
        assert code == 2 and "a server is using" in out and "--force" in out, out
    finally:
        lease.release()
    own = Ownership(db, "west")  # a lease in the database, not yet run out
    own.acquire(ttl=600)
    code, out = pitch_db(*args)
    assert code == 2 and "instance 'west' holds its lease" in out, out
    assert notes(sqlite_url(target)) == ["n0"]
    db.close()

    code, out = pitch_db(*args, "--force")
    assert code == 0, out
    assert notes(sqlite_url(target)) == ["n0", "n1", "n2", "n3"]


def test_backup_under_writes_completes_with_one_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A backup that steps through the file without holding one read transaction
    # starts over after every write of another connection: under steady writes it
    # never ends. Here another connection writes between every two steps of the copy.
    from pitch.store import backup as bk

    monkeypatch.setattr(bk, "PAGES_PER_STEP", 16)
    live = tmp_path / "pitch.db"
    make_db(sqlite_url(live), rows=0)
    with sqlite3.connect(live) as conn:
        conn.executemany(
            "INSERT INTO later_feature (note) VALUES (?)", [("x" * 900,) for _ in range(2000)]
        )
    conn.close()
    writer = sqlite3.connect(live, isolation_level=None)
    left: list[int] = []

    def write_between_steps(pages_left: int, _total: int) -> None:
        assert not left or pages_left < left[-1], "the copy started over"
        left.append(pages_left)
        writer.execute("INSERT INTO later_feature (note) VALUES ('during')")

    try:
        bk.backup_sqlite(live, tmp_path / "b.db", pause=0, progress=write_between_steps)
    finally:
        writer.close()
    assert len(left) > 20 and left[-1] == 0
    with sqlite3.connect(tmp_path / "b.db") as conn:  # the snapshot of when it began
        assert conn.execute("SELECT count(*) FROM later_feature").fetchone() == (2000,)
    conn.close()


@pytest.mark.skipif(PG_URL is None, reason="PITCH_TEST_PG_URL is not set")
def test_postgresql_round_trip_and_refusals(tmp_path: Path) -> None:
    src, dest = fresh_pg_database(), fresh_pg_database()
    make_db(src, rows=5)
    make_db(dest, rows=1)
    code, out = pitch_db("backup", str(tmp_path / "b.dump"), "--db", src)
    assert code == 0, out
    code, out = pitch_db("restore", str(tmp_path / "b.dump"), "--db", dest)
    assert code == 0, out
    assert notes(dest) == [f"n{i}" for i in range(5)]

    db = Database(dest)
    Ownership(db, "west").acquire(ttl=600)
    db.close()
    code, out = pitch_db("restore", str(tmp_path / "b.dump"), "--db", dest)
    assert code == 2 and "instance 'west' holds its lease" in out, out
    (tmp_path / "junk").write_text("junk")
    older = fresh_pg_database()
    db = Database(older, migrate=False)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    db.close()
    assert pitch_db("backup", str(tmp_path / "old.dump"), "--db", older)[0] == 0
    code, out = pitch_db("restore", str(tmp_path / "old.dump"), "--db", dest, "--force")
    assert code == 2 and "newer schema" in out, out
    code, out = pitch_db("restore", str(tmp_path / "old.dump"), "--db", fresh_pg_database())
    assert code == 0 and "from schema revision 0006" in out, out
    code, out = pitch_db("restore", str(tmp_path / "junk"), "--db", dest, "--force")
    assert code == 2 and "not a pg_dump" in out, out
    assert notes(dest) == [f"n{i}" for i in range(5)]


def test_postgresql_password_goes_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from pitch.store.backup import _pg

    monkeypatch.delenv("PGPASSWORD", raising=False)
    dsn, env = _pg("postgresql+psycopg://pitch:s3cret%2F@db.example:5433/pitch?sslmode=require")
    assert "s3cret" not in dsn
    assert dsn == "postgresql://pitch@db.example:5433/pitch?sslmode=require"
    assert env["PGPASSWORD"] == "s3cret/"


def test_postgresql_without_its_client_programs_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump, no pg_restore
    url = "postgresql+psycopg://pitch@127.0.0.1:9/pitch"
    code, out = pitch_db("backup", str(tmp_path / "b.dump"), "--db", url)
    assert code == 2 and "pg_dump is not installed" in out, out
    (tmp_path / "b.dump").write_bytes(b"PGDMP")
    code, out = pitch_db("restore", str(tmp_path / "b.dump"), "--db", url)
    assert code == 2 and "pg_restore is not installed" in out, out
    assert {p.name for p in tmp_path.iterdir()} == {"b.dump"}
