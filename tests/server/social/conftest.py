"""The social tests' players: the accounts tests' server (``accounts_server``: each
client at an address of its own, so that the sign-up limit never bites)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.server.accounts.conftest import accounts_server, client
from tests.server.helpers import ServerProcess

PASSWORD = "correct horse battery"


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


__all__ = ["accounts_server", "member"]
