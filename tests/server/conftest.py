"""Servers for the suite, one per database of :data:`tests.support.databases.DBS`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.server.helpers import ServerProcess
from tests.support.databases import DBS, db_url


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
