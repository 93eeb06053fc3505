"""Accounts through two server processes on one database (a cluster's processes
behind its proxy): sessions and the sign-in back-off hold through either."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.accounts.conftest import PROXY_ENV, client, new_address
from tests.server.accounts.softkey import SoftKey
from tests.server.helpers import ServerProcess
from tests.support.databases import db_url

PASSWORD = "correct horse battery"


@pytest.fixture
def two(db_kind: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = db_url(db_kind, tmp_path)
    procs = [
        ServerProcess(url, env={**PROXY_ENV, "PITCH_INSTANCE": i}, log=tmp_path / f"{i}.log")
        for i in ("a", "b")
    ]
    try:
        for p in procs:
            p.start()
        yield procs[0], procs[1]
    finally:
        for p in procs:
            p.stop()


def test_a_session_made_on_one_process_holds_on_the_other(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two
    name = f"Ann {secrets.token_hex(3)}"
    body = {"name": name, "password": PASSWORD}
    address = new_address()
    with client(a, address) as on_a, client(b, address) as on_b:
        assert on_a.post("/api/accounts", json=body).status_code == 201
        on_b.cookies.set("pitch_session", on_a.cookies["pitch_session"], domain="127.0.0.1")
        assert on_b.get("/api/account").json()["name"] == name
        # Signed out through b: a refuses the session too (no process keeps a copy).
        assert on_b.request("DELETE", "/api/session", json={}).status_code == 204
        assert on_a.get("/api/account").status_code == 401
        # Signed in through b, and the password changed through a: b's session ends.
        assert on_b.post("/api/session", json=body).status_code == 200
        assert on_a.post("/api/session", json=body).status_code == 200
        change = {"password": PASSWORD, "new_password": "another pass phrase"}
        assert on_a.post("/api/account/password", json=change).status_code == 200
        assert on_b.get("/api/account").status_code == 401
        # A seat taken through b while signed in (a's new session) is the account's.
        on_b.cookies.set("pitch_session", on_a.cookies["pitch_session"], domain="127.0.0.1")
        t = on_b.post("/api/tables", json={"rules": {"players": 2}}).json()["id"]
        assert on_b.post(f"/api/tables/{t}/seats/0", json={"name": "Ann"}).status_code == 200
        seats = on_a.get("/api/account/export").json()["seats"]
        assert [(s["table"], s["seat"]) for s in seats] == [(t, 0)]


def test_the_back_off_holds_across_processes(two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    name = f"Vic {secrets.token_hex(3)}"
    with client(a) as c:
        assert c.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    guess = {"name": name, "password": "wrong guess!"}
    for i in range(5):  # the name's free failures, half through each process
        with client(a if i % 2 else b) as c:
            assert c.post("/api/session", json=guess).status_code == 401
    for srv in (a, b):
        with client(srv) as c:
            r = c.post("/api/session", json=guess)
            assert r.status_code == 429 and r.json()["code"] == "too_many_attempts", r.text


def test_a_passkey_challenge_made_on_one_process_is_answered_on_the_other(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    # Behind a cluster's proxy both processes see the one Host the browser used: b is
    # sent a's, as nginx would send it, and the challenges are in the database.
    a, b = two
    key = SoftKey()
    via_b = {"Host": a.base.split("//", 1)[1]}
    with client(a) as c:
        body = {"name": f"Ann {secrets.token_hex(3)}", "password": PASSWORD}
        assert c.post("/api/accounts", json=body).status_code == 201
        options = c.post("/api/account/passkeys/options", json={"password": PASSWORD}).json()
        added = c.post(
            b.base + "/api/account/passkeys",
            json={"credential": key.create(options, a.base)},
            headers=via_b,
        )
        assert added.status_code == 201, added.text
        assert c.request("DELETE", "/api/session", json={}).status_code == 204
        answer = key.get(c.post("/api/session/passkey/options", json={}).json(), a.base)
        signed = c.post(b.base + "/api/session/passkey", json={"credential": answer}, headers=via_b)
        assert signed.status_code == 200, signed.text
        # Used through b: a has no copy of it either.
        again = c.post("/api/session/passkey", json={"credential": answer})
        assert again.status_code == 401 and again.json()["code"] == "bad_passkey"
