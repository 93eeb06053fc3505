"""Servers for the suite, one per database of :data:`tests.support.databases.DBS`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.server.helpers import ServerProcess
from tests.support.databases import DBS, db_url
from tests.support.timing import margin


@pytest.fixture(params=DBS, scope="session")
def db_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def server(db_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One running server per database, shared by the tests (each makes its own tables)."""
    tmp = tmp_path_factory.mktemp("server")
    srv = ServerProcess(db_url(db_kind, tmp), log=tmp / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    """Servers started with their own settings, on SQLite in the test's folder unless
    ``db`` names another database, each logging to its own file; by default only once
    its bot worker is ready (``ready=False``: at once). Stopped at the end."""
    started: list[ServerProcess] = []

    def start(
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        db: str | None = None,
        nofile: tuple[int, int] | None = None,
        ready: bool = True,
    ) -> ServerProcess:
        srv = ServerProcess(
            db or db_url("sqlite", tmp_path),
            env=env,
            log=tmp_path / f"server{len(started)}.log",
            args=args,
            nofile=nofile,
        )
        started.append(srv)
        srv.start()
        if ready:
            wait_for_workers(srv)
        return srv

    yield start
    for s in started:
        s.stop()


def wait_for_workers(srv: ServerProcess) -> None:
    """Until the server's bot worker has warmed up (it takes seconds on a busy CPU)."""
    import httpx

    deadline = time.monotonic() + margin(120)
    while time.monotonic() < deadline:
        if httpx.get(srv.base + "/api/health", timeout=margin(10)).json()["bot_workers"]["ready"]:
            return
        time.sleep(0.2)
    raise AssertionError("no bot worker became ready")
