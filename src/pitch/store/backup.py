"""Backing up and restoring the whole database (``pitch db backup`` / ``restore``).

Nothing here names a table of the game: a backup is every page of the SQLite file (or
everything ``pg_dump`` sees), so tables added later are copied too. The only tables read
by name are Alembic's ``alembic_version`` (what schema a file has) and ``instances``
(whether a server holds the database).

SQLite: the online backup API copies the live file while a server keeps writing. The
copy runs inside one read transaction on the source: in WAL mode that never blocks the
server's writes, and it keeps one snapshot, where a backup stepping without it would
start over after every write of the server (a busy server: forever). Every file is
written beside its destination and renamed into place once checked, so a failure leaves
nothing half-written.

PostgreSQL: ``pg_dump -Fc`` and ``pg_restore --clean``, with the password in the
environment (``PGPASSWORD``), never on a command line that ``ps`` shows.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from pitch.store.db import MIGRATIONS, Database

PAGES_PER_STEP = 256
"""Pages (4 KiB each by default) copied between two short pauses."""
STEP_PAUSE = 0.005
"""Seconds between two steps of the copy: the disk is the server's too."""


class BackupError(Exception):
    """A backup or restore that cannot go ahead; nothing was changed."""


class ServerRunning(BackupError):
    """A server holds the database (restore refuses unless forced)."""


@dataclass(frozen=True)
class Done:
    revision: str
    """The Alembic revision of what was written (after any upgrade)."""
    was: str | None = None
    """The backup's revision before it was upgraded (``None``: it was current)."""
    replaced: Path | None = None
    """Where the database that a restore replaced was kept."""


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL, ``None`` for another database."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return None
    if not u.database or u.database == ":memory:":
        raise BackupError("an in-memory database has nothing to back up")
    return Path(u.database)


def _scripts() -> ScriptDirectory:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg)


def _pitch_database(rev: str | None, what: str) -> str:
    """A backup copies a database of any pitch, newer ones too (a restore decides
    whether it can use it); it only has to be one of pitch's."""
    if rev is None:
        raise BackupError(f"{what} is not a pitch database (it has no Alembic revision)")
    return rev


def check_revision(rev: str | None, what: str) -> bool:
    """Raise unless ``rev`` is a revision this pitch knows; ``True`` if it is the newest."""
    rev = _pitch_database(rev, what)
    scripts = _scripts()
    try:
        known = scripts.get_revision(rev) is not None
    except CommandError:
        known = False
    if not known:
        raise BackupError(
            f"{what} is at schema revision {rev!r}, which this pitch does not know: "
            "made by a newer pitch (upgrade pitch first) or by another program"
        )
    return rev == scripts.get_current_head()


def _stamp() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def _temp_beside(dest: Path) -> Path:
    """A new file's name in ``dest``'s directory (so a rename moves it into place)."""
    return dest.with_name(f".{dest.name}.tmp-{secrets.token_hex(4)}")


def _remove(path: Path) -> None:
    for p in (path, *(Path(f"{path}{s}") for s in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _writable_dir(dest: Path, what: str) -> None:
    parent = dest.parent
    if not parent.is_dir():
        raise BackupError(f"cannot write {what} {dest}: no directory {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BackupError(f"cannot write {what} {dest}: directory {parent} is not writable")


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    # mode=ro / rw: never create the file (sqlite3.connect would, for a typo).
    mode = "ro" if read_only else "rw"
    conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        yield conn
    finally:
        conn.close()


def _sqlite_revision(conn: sqlite3.Connection) -> str | None:
    has = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='alembic_version'"
    ).fetchone()
    if has is None:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def _create(dest: Path, what: str) -> sqlite3.Connection:
    try:
        out = sqlite3.connect(dest, isolation_level=None)
        out.execute("PRAGMA user_version").fetchone()  # SQLite creates the file lazily
    except sqlite3.Error as e:
        raise BackupError(f"cannot write {what}: {e}") from None
    return out


Progress = Callable[[int, int], None]
"""Told (pages left, pages in all) after each step of a copy."""


def _copy(
    src: sqlite3.Connection, out: sqlite3.Connection, pause: float, progress: Progress | None = None
) -> None:
    """Every page of ``src`` into the new database ``out``, one snapshot, in short
    steps."""

    def step(_status: int, left: int, total: int) -> None:
        if progress is not None:
            progress(left, total)
        time.sleep(pause)

    src.execute("BEGIN")
    # The read transaction starts at the first read: from here on the copy sees
    # this snapshot, whatever the server commits meanwhile.
    src.execute("SELECT count(*) FROM sqlite_master").fetchone()
    try:
        src.backup(out, pages=PAGES_PER_STEP, progress=step)
    finally:
        src.execute("ROLLBACK")
    # A backup is one self-contained file: no -wal beside it.
    out.execute("PRAGMA journal_mode=DELETE")


def _check_copy(path: Path, what: str) -> str | None:
    """Raise unless ``path`` is a sound SQLite database; its Alembic revision."""
    try:
        with _connect(path) as conn:
            problems = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
            if problems != ["ok"]:
                raise BackupError(f"{what} fails SQLite's integrity check: {problems[:3]}")
            return _sqlite_revision(conn)
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{what} is not a SQLite database ({e})") from None


def _place(tmp: Path, dest: Path) -> None:
    """Rename the finished ``tmp`` over ``dest``, durably."""
    _fsync(tmp)
    os.replace(tmp, dest)
    with contextlib.suppress(OSError):  # directories cannot be opened everywhere
        _fsync(dest.parent)


def backup_sqlite(
    db: Path,
    dest: Path,
    *,
    force: bool = False,
    pause: float = STEP_PAUSE,
    progress: Progress | None = None,
) -> Done:
    """Copy the live database ``db`` to ``dest`` (safe while a server writes to it)."""
    if not db.is_file():
        raise BackupError(f"no database at {db}")
    if dest.exists() and not force:
        raise BackupError(f"{dest} exists already (--force replaces it)")
    if dest.exists() and dest.resolve() == db.resolve():
        raise BackupError(f"{dest} is the database itself")
    _writable_dir(dest, "the backup")
    tmp = _temp_beside(dest)
    try:
        out = _create(tmp, f"the backup {dest}")
        try:
            with contextlib.closing(out), _connect(db) as src:
                _copy(src, out, pause, progress)
        except sqlite3.DatabaseError as e:
            raise BackupError(f"cannot read the database {db}: {e}") from None
        except OSError as e:
            raise BackupError(f"cannot write the backup {dest}: {e}") from None
        rev = _check_copy(tmp, f"the copy of {db}")
        rev = _pitch_database(rev, f"the database {db}")
        _place(tmp, dest)
    finally:
        _remove(tmp)
    return Done(revision=rev)


def sqlite_holders(db: Path) -> list[str]:
    """Why a server may be using ``db`` now: each instance lock file that a live
    process holds, each lease in ``instances`` not yet run out. Empty: none."""
    held: list[str] = []
    for lock in sorted(db.parent.glob(f"{db.name}.instance-*.lock")):
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            continue
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            held.append(f"a running process holds {lock.name}")
        except ImportError:  # no flock (Windows): the leases below still tell
            pass
        finally:
            os.close(fd)
    if db.is_file():
        # Read-write, though it only reads: a read-only connection to a WAL database
        # leaves its -wal and -shm files behind.
        with contextlib.suppress(sqlite3.DatabaseError), _connect(db) as conn:
            rows = conn.execute(
                "SELECT name, expires_at - (julianday('now') - 2440587.5) * 86400.0 "
                "FROM instances WHERE expires_at > (julianday('now') - 2440587.5) * 86400.0"
            ).fetchall()
            held += [f"instance {n!r} holds its lease for another {s:.0f} s" for n, s in rows]
    return held


def _release_leases(url: str) -> None:
    """The leases in a backup are those of the processes that ran then: a server
    started on the restored database must not wait for them to run out."""
    db = Database(url, migrate=False)
    try:
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE instances SET expires_at = 0"))
    finally:
        db.close()


def _upgrade(url: str, rev: str, what: str) -> str | None:
    """Bring the restored copy to the newest schema; its revision before, if older."""
    if check_revision(rev, what):
        return None
    db = Database(url, migrate=False)
    try:
        db.migrate()
    except SQLAlchemyError as e:
        raise BackupError(f"cannot upgrade {what} from revision {rev!r}: {e}") from None
    finally:
        db.close()
    return rev


def _no_server(db: Path, force: bool) -> None:
    holders = sqlite_holders(db)
    if holders and not force:
        raise ServerRunning(
            f"a server is using {db}: " + "; ".join(holders) + ". Stop it first "
            "(a lease of a server that was killed runs out by itself; "
            "--force restores anyway)"
        )


def restore_sqlite(
    src: Path, db: Path, *, force: bool = False, now: Callable[[], str] = _stamp
) -> Done:
    """Make ``db`` a copy of the backup ``src``; the database it replaces is kept as
    ``db.bak-<time>``. Refuses while a server holds ``db`` unless ``force``."""
    if not src.is_file():
        raise BackupError(f"no backup at {src}")
    if db.exists() and src.resolve() == db.resolve():
        raise BackupError(f"{src} is the database itself")
    _no_server(db, force)
    if not db.exists() and Path(f"{db}-wal").exists():
        # SQLite would apply that log, another database's, to the restored file.
        raise BackupError(f"{db}-wal is there without its database: move it away first")
    _writable_dir(db, "the database")
    tmp = _temp_beside(db)
    try:
        out = _create(tmp, f"beside the database {db}")
        try:
            with contextlib.closing(out), _connect(src, read_only=True) as conn:
                _copy(conn, out, 0.0)
        except sqlite3.DatabaseError as e:
            raise BackupError(f"{src} is not a SQLite database ({e})") from None
        except OSError as e:
            raise BackupError(f"cannot write beside the database {db}: {e}") from None
        what = f"the backup {src}"
        rev = _pitch_database(_check_copy(tmp, str(src)), what)
        check_revision(rev, what)
        url = f"sqlite:///{tmp}"
        was = _upgrade(url, rev, what)
        _release_leases(url)
        with _connect(tmp) as conn:
            # The server's mode (it would set it anyway); one file until it opens it.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with _connect(tmp) as conn:
            head = _sqlite_revision(conn)
        assert head is not None
        _no_server(db, force)  # again: one may have started while this one copied
        replaced = _set_aside(db, now()) if db.exists() else None
        _place(tmp, db)
    finally:
        _remove(tmp)
    return Done(revision=head, was=was, replaced=replaced)


def _set_aside(db: Path, stamp: str) -> Path:
    """Keep the database about to be replaced as ``db.bak-<stamp>`` (its committed
    state: what its -wal held is written into it first, then the -wal is removed, or
    SQLite would apply it to the restored file)."""
    try:
        with _connect(db) as conn:
            busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                raise ServerRunning(f"a process is writing to {db}: stop it first")
    except sqlite3.DatabaseError as e:
        raise BackupError(f"cannot read the database {db} about to be replaced: {e}") from None
    bak = db.with_name(f"{db.name}.bak-{stamp}")
    if bak.exists():
        raise BackupError(f"{bak} exists already")
    try:
        os.link(db, bak)  # the same file under a second name: instant, no copy
    except OSError:
        shutil.copy2(db, bak)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{db}{suffix}").unlink()
    return bak


# --- PostgreSQL ---------------------------------------------------------------------


def _pg(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection URI without the password, and an environment with it."""
    u = make_url(url)
    env = dict(os.environ)
    if u.password is not None:
        env["PGPASSWORD"] = str(u.password)
    # URL.set(password=None) keeps the password: build the URL without it.
    plain = URL.create(
        "postgresql",
        username=u.username,
        host=u.host,
        port=u.port,
        database=u.database,
        query=u.query,
    )
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(
            f"{name} is not installed: PostgreSQL's client programs do PostgreSQL "
            "backups (Debian: apt-get install postgresql-client)"
        )
    return path


def _run(args: list[str], env: dict[str, str], what: str) -> str:
    r = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise BackupError(f"{what} failed: {r.stderr.strip()[-2000:]}")
    return r.stdout


_COPY = re.compile(
    r"^COPY \S*alembic_version \(version_num\) FROM stdin;\n(.*?)\n\\\.$", re.M | re.S
)


def _dump_revision(path: Path, env: dict[str, str]) -> str | None:
    """The Alembic revision inside a ``pg_dump -Fc`` file (``None``: not pitch's)."""
    args = [_tool("pg_restore"), "--data-only", "--table=alembic_version", "-f", "-", str(path)]
    r = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise BackupError(f"{path} is not a pg_dump -Fc archive ({r.stderr.strip()[-500:]})")
    m = _COPY.search(r.stdout)
    if m is None:
        return None
    rows = m.group(1).split("\n")
    return rows[0] if rows and rows[0] else None


def backup_pg(url: str, dest: Path, *, force: bool = False) -> Done:
    """``pg_dump -Fc`` of the whole database into ``dest``."""
    dsn, env = _pg(url)
    pg_dump = _tool("pg_dump")
    if dest.exists() and not force:
        raise BackupError(f"{dest} exists already (--force replaces it)")
    _writable_dir(dest, "the backup")
    tmp = _temp_beside(dest)
    try:
        _run([pg_dump, "--format=custom", "--file", str(tmp), "--dbname", dsn], env, "pg_dump")
        rev = _dump_revision(tmp, env)
        rev = _pitch_database(rev, "the database")
        _place(tmp, dest)
    finally:
        _remove(tmp)
    return Done(revision=rev)


def pg_holders(url: str) -> list[str]:
    """The leases in ``instances`` not yet run out (each server process renews its own)."""
    db = Database(url, migrate=False)
    try:
        with db.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT name, expires_at - extract(epoch from clock_timestamp()) "
                    "FROM instances WHERE expires_at > extract(epoch from clock_timestamp())"
                )
            ).all()
    except SQLAlchemyError:
        return []  # no instances table (an empty database): nobody serves it
    finally:
        db.close()
    return [f"instance {n!r} holds its lease for another {float(s):.0f} s" for n, s in rows]


def _pg_revision(url: str) -> str | None:
    """The schema revision of the database at ``url`` (``None``: none, an empty one)."""
    db = Database(url, migrate=False)
    try:
        with db.engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except SQLAlchemyError:
        return None
    finally:
        db.close()


def _restorable_over(current: str | None, rev: str) -> None:
    """``pg_restore --clean`` drops and makes again what the dump holds and nothing
    else: over a database at a newer schema, the tables the dump lacks would stay, and
    bringing the restored schema up to date would fail on them."""
    if current is None or current == rev:
        return
    order = [s.revision for s in _scripts().walk_revisions()]  # newest first
    if current not in order or order.index(current) < order.index(rev):
        raise BackupError(
            f"the database is at a newer schema ({current}) than the backup ({rev}): "
            "restore into a new, empty database (createdb) and point the servers at it"
        )


def restore_pg(url: str, src: Path, *, force: bool = False) -> Done:
    """``pg_restore --clean`` of the dump ``src`` into the database at ``url``, in one
    transaction, then the schema brought up to date."""
    if not src.is_file():
        raise BackupError(f"no backup at {src}")
    dsn, env = _pg(url)
    pg_restore = _tool("pg_restore")
    what = f"the backup {src}"
    rev = _pitch_database(_dump_revision(src, env), what)
    check_revision(rev, what)
    _restorable_over(_pg_revision(url), rev)
    holders = pg_holders(url)
    if holders and not force:
        raise ServerRunning(
            "a server is using the database: " + "; ".join(holders) + ". Stop it first "
            "(a lease of a server that was killed runs out by itself; --force restores anyway)"
        )
    args = [pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction"]
    _run([*args, "--exit-on-error", "--dbname", dsn, str(src)], env, "pg_restore")
    was = _upgrade(url, rev, what)
    _release_leases(url)
    return Done(revision=_scripts().get_current_head() or rev, was=was)
