"""Servers for the accounts tests: a real ``pitch serve`` per database that trusts
127.0.0.1 as a proxy, so that each test names its own client address
(``X-Forwarded-For``) and one test's failed sign-ins never slow another's."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import httpx
import pytest

from tests.server.helpers import ServerProcess
from tests.support.databases import db_url

PROXY_ENV = {"PITCH_FORWARDED_ALLOW_IPS": "127.0.0.1", "PITCH_LOGIN_BACKOFF": "600"}
"""A first back-off of 10 minutes (capped at 5 for a name): a test sees the 429 it
expects however slow the machine (the schedule itself: tests/store/test_accounts.py)."""
_addresses = itertools.count(1)


def new_address() -> str:
    """A client address no other test in this session uses."""
    n = next(_addresses)
    return f"198.51.{n // 250}.{n % 250 + 1}"


@pytest.fixture(scope="module")
def accounts_server(
    db_kind: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("accounts")
    srv = ServerProcess(db_url(db_kind, tmp), env=PROXY_ENV, log=tmp / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def client(srv: ServerProcess, address: str | None = None) -> httpx.Client:
    """A browser-like client at its own address (cookies kept, JSON sent)."""
    return httpx.Client(
        base_url=srv.base,
        headers={"X-Forwarded-For": address or new_address()},
        timeout=60,
    )
