"""A real ``pitch serve`` for the social tests, as the accounts tests have theirs
(each client at an address of its own, so that the sign-up limit never bites)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.server.accounts.conftest import PROXY_ENV, client
from tests.server.helpers import ServerProcess
from tests.support.databases import db_url

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def social_server(
    db_kind: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("social")
    srv = ServerProcess(db_url(db_kind, tmp), env=PROXY_ENV, log=tmp / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def member(srv: ServerProcess, prefix: str = "Ann") -> tuple[httpx.Client, str]:
    """A new signed-in client and its account's name."""
    c = client(srv)
    name = f"{prefix} {secrets.token_hex(3)}"
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c, name


@contextmanager
def together(*members: tuple[httpx.Client, str]) -> Iterator[None]:
    """Close these members' clients at the end."""
    try:
        yield
    finally:
        for c, _ in members:
            c.close()
