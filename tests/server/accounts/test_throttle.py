"""Sign-in back-off and the sign-up rate against a real server (docs/server.md,
"Accounts"): guesses from one address, guesses spread over many addresses against one
name, and a flood of sign-ups from one address."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from tests.server.accounts.conftest import PROXY_ENV, client, new_address
from tests.server.helpers import ServerProcess
from tests.support.databases import db_url

PASSWORD = "correct horse battery"


def _guess(c: object, name: str, password: str = "wrong guess!") -> tuple[int, str]:
    r = c.post("/api/session", json={"name": name, "password": password})  # type: ignore[attr-defined]
    if r.status_code == 429:
        body = r.json()
        assert body["code"] == "too_many_attempts", body
        assert r.headers["retry-after"] == str(body["retry_after"]), r.headers
        assert 1 <= body["retry_after"] <= 900
    return r.status_code, r.text


def test_a_thousand_wrong_passwords_from_one_address_cost_a_few_hashes(
    accounts_server: ServerProcess,
) -> None:
    owner = f"Own {secrets.token_hex(3)}"
    with client(accounts_server) as c:
        assert (
            c.post("/api/accounts", json={"name": owner, "password": PASSWORD}).status_code == 201
        )
    attacker = new_address()
    statuses = []
    with client(accounts_server, attacker) as c:
        for i in range(1000):
            # A new name each time: only the address's own back-off is at work.
            status, text = _guess(c, f"{owner[:4]}{i}")
            assert status in (401, 429), text
            statuses.append(status)
        # Ten free failures, then the address waits: every other answer is a 429
        # worked out without a hash.
        assert statuses[:10] == [401] * 10
        assert statuses[10:] == [429] * 990
        # The owner's name is not what was guessed: from its own address, it signs in.
    with client(accounts_server) as c:
        r = c.post("/api/session", json={"name": owner, "password": PASSWORD})
        assert r.status_code == 200, r.text


def test_guesses_spread_over_addresses_never_lock_the_owner_out(
    accounts_server: ServerProcess,
) -> None:
    victim = f"Vic {secrets.token_hex(3)}"
    with client(accounts_server) as owner:  # the owner's own browser signs in once
        body = {"name": victim, "password": PASSWORD}
        assert owner.post("/api/accounts", json=body).status_code == 201
        assert owner.request("DELETE", "/api/session", json={}).status_code == 204
        # Guesses at the name from a new address each time (a botnet).
        statuses = []
        for _ in range(40):
            with client(accounts_server) as bot:
                statuses.append(_guess(bot, victim)[0])
        assert statuses[:5] == [401] * 5, statuses
        assert statuses[5:] == [429] * 35, statuses
        # Another browser waits like the guessers (it cannot be told from one), but
        # the owner's browser, which signed in to this account before, is spared.
        with client(accounts_server) as stranger:
            status, _ = _guess(stranger, victim, PASSWORD)
            assert status == 429
        r = owner.post("/api/session", json=body)
        assert r.status_code == 200, r.text
        # A device cookie is the account's own: it spares no other name's back-off.
        other = f"Oth {secrets.token_hex(3)}"
        for _ in range(6):
            with client(accounts_server) as bot:
                _guess(bot, other)
        assert _guess(owner, other)[0] == 429


@pytest.mark.parametrize("kind", ["sqlite"])
def test_a_flood_of_sign_ups_from_one_address_is_refused(kind: str, tmp_path: Path) -> None:
    env = {**PROXY_ENV, "PITCH_SIGNUPS_PER_HOUR": "3"}
    srv = ServerProcess(db_url(kind, tmp_path), env=env, log=tmp_path / "server.log")
    srv.start()
    try:
        flood = new_address()
        with client(srv, flood) as c:
            made = [
                c.post(
                    "/api/accounts",
                    json={"name": f"F {secrets.token_hex(3)}", "password": PASSWORD},
                ).status_code
                for _ in range(20)
            ]
            assert made[:3] == [201] * 3 and set(made[3:]) == {429}, made
            r = c.post("/api/accounts", json={"name": "F x", "password": PASSWORD})
            assert r.json()["code"] == "too_many_requests"
        # An IPv6 client cannot dodge it by taking the next address of its /64.
        for n in range(5):
            with client(srv, f"2001:db8:1:2::{n + 1}") as c:
                body = {"name": f"S {secrets.token_hex(3)}", "password": PASSWORD}
                assert c.post("/api/accounts", json=body).status_code == (201 if n < 3 else 429)
        with client(srv) as c:  # another address is not held up
            body = {"name": f"G {secrets.token_hex(3)}", "password": PASSWORD}
            assert c.post("/api/accounts", json=body).status_code == 201
    finally:
        srv.stop()
