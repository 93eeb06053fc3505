"""Connecting to the database and bringing its schema up to date (Alembic)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def default_url() -> str:
    """An embedded SQLite file in the user's data directory (``PITCH_DB`` overrides)."""
    env = os.environ.get("PITCH_DB")
    if env:
        return env
    import platformdirs

    data = Path(platformdirs.user_data_dir("pitch", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'pitch.db'}"


def _sqlite_pragmas(dbapi_conn: object, _record: object) -> None:
    cur = dbapi_conn.cursor()  # type: ignore[attr-defined]
    # WAL: readers never block the writer. synchronous=NORMAL in WAL mode keeps every
    # committed transaction across a crash of the process (kill -9); only a power cut
    # may lose the last commits. foreign_keys: SQLite leaves them off by default.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


class Database:
    """An engine plus a session factory, migrated to the newest schema on open."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = url or default_url()
        u = make_url(self.url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if u.database and u.database != ":memory:":
                Path(u.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(self.url, connect_args={"check_same_thread": False})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(self.url, pool_size=8, max_overflow=4, pool_pre_ping=True)
        self.sessions: sessionmaker[Session] = sessionmaker(self.engine, expire_on_commit=False)
        if migrate:
            self.migrate()

    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A session whose reads all see one committed state of the database (several
        reads that must agree: a profile's ratings and history). PostgreSQL: one
        REPEATABLE READ transaction. SQLite: Python's driver begins no transaction
        before a SELECT (each read would see the newest commit), so one is begun here;
        in WAL mode its first read fixes the snapshot until the session ends."""
        with self.sessions() as s:
            if self.is_sqlite:
                s.connection().exec_driver_sql("BEGIN")
            else:
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            yield s

    def migrate(self) -> None:
        """Apply every Alembic migration not yet applied (idempotent)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()
