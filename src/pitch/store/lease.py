"""One process per instance name: a lock that the operating system or the database
drops by itself when its holder dies, so a crashed server can be restarted at once
while a second live one cannot start under the same name (it would serve stale copies
of the first one's tables).

- SQLite: an exclusive ``flock`` on a file beside the database.
- PostgreSQL: a session advisory lock, held on a connection of its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url

from pitch.store.db import Database


class InstanceTaken(Exception):
    """Another live process serves as this instance."""


def _key(instance: str) -> int:
    """The instance name as a signed 64-bit advisory lock key."""
    return int.from_bytes(hashlib.sha256(instance.encode()).digest()[:8], "big", signed=True)


class InstanceLease:
    def __init__(self, db: Database, instance: str) -> None:
        self.db = db
        self.instance = instance
        self._fd: int | None = None
        self._conn: Any = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`InstanceTaken`."""
        taken = InstanceTaken(
            f"another server is running as instance {self.instance!r} on this database; "
            "stop it, or start this one with another --instance"
        )
        if self.db.is_sqlite:
            path = make_url(self.db.url).database
            if not path or path == ":memory:":
                return
            digest = hashlib.sha256(self.instance.encode()).hexdigest()[:12]
            lock = Path(f"{path}.instance-{digest}.lock")
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise taken from None
            except ImportError:  # no flock (Windows): no guard
                pass
            self._fd = fd
            return
        conn = self.db.engine.connect()
        got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _key(self.instance)})
        if not got.scalar():
            conn.close()
            raise taken
        conn.commit()
        self._conn = conn

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the file drops the flock
            self._fd = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.execute(
                    text("SELECT pg_advisory_unlock(:k)"), {"k": _key(self.instance)}
                )
                self._conn.commit()
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
