"""A throwaway PostgreSQL cluster for ``pitch cluster`` without ``--db`` (as the
tests' ``scripts/with-postgres.sh``): Debian's package, a data directory of its own,
a free local port. Not for data that must last: it is deleted when the cluster stops."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def pg_bin() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThrowawayPostgres:
    def __init__(self) -> None:
        b = pg_bin()
        if b is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = b
        # A directory of its own in the system's temp dir: when root runs this, the
        # postgres user must reach it (a root-only parent, like pytest's, would not do).
        self.root = Path(tempfile.mkdtemp(prefix="pitch-pg-"))
        self.port = _free_port()
        # PostgreSQL refuses to run as root: then it runs as the package's user.
        self.run_as: list[str] = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        r = subprocess.run([*self.run_as, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed: {(r.stdout + r.stderr).strip()}")

    def start(self, max_connections: int = 300) -> str:
        if self.run_as:
            shutil.chown(self.root, "postgres")
        data = self.root / "data"
        self._run(
            str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"
        )
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            f"-c max_connections={max_connections} -c fsync=off"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(self.root / "log"),
            "-w",
            "-o",
            opts,
            "start",
        )
        return self.url

    def pid(self) -> int | None:
        """The postmaster's process id (its backends are its children), while it runs."""
        try:
            return int((self.root / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        subprocess.run(
            [
                *self.run_as,
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.root / "data"),
                "-m",
                "fast",
                "stop",
            ],
            capture_output=True,
        )
        shutil.rmtree(self.root, ignore_errors=True)
