"""Accounts against a real server (docs/server.md, "Accounts"): the HTTP contract,
sessions (fixation, a stolen id after sign-out, a password change, a deleted
account), names, cross-site requests, linked seats and the export."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
import pytest

from tests.server.accounts.conftest import client
from tests.server.helpers import Player, ServerProcess

JSON = {"Content-Type": "application/json"}
PASSWORD = "correct horse battery"


def _name(prefix: str = "Ann") -> str:
    return f"{prefix} {secrets.token_hex(3)}"


def _sign_up(c: httpx.Client, name: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
    return c.post("/api/accounts", json={"name": name, "password": password, **more})


def _sign_in(c: httpx.Client, name: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
    return c.post("/api/session", json={"name": name, "password": password, **more})


def _delete(c: httpx.Client, url: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return c.request("DELETE", url, json=body) if body is not None else c.delete(url, headers=JSON)


def _cookie(r: httpx.Response, name: str = "pitch_session") -> str:
    for line in r.headers.get_list("set-cookie"):
        if line.startswith(name + "="):
            return line
    raise AssertionError(f"no {name} cookie in {r.headers}")


def _plant(c: httpx.Client, session_id: str) -> None:
    """The cookie as the server would have set it (one cookie jar entry, not two)."""
    c.cookies.set("pitch_session", session_id, domain="127.0.0.1", path="/")


def _refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    return body


def test_the_http_contract(accounts_server: ServerProcess) -> None:
    name = _name()
    with client(accounts_server) as c:
        _refused(c.get("/api/account"), 401, "signed_out")  # a guest
        r = _sign_up(c, name)
        assert r.status_code == 201, r.text
        assert r.json()["name"] == name and r.json()["ratings"] == {}
        cookie = _cookie(r).lower()
        for part in ("httponly", "samesite=lax", "path=/", "max-age=2592000"):
            assert part in cookie, cookie
        assert "secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
        assert c.get("/api/account").json() == {"name": name, "ratings": {}, "seats_linked": None}
        assert _delete(c, "/api/session").status_code == 204
        _refused(c.get("/api/account"), 401, "signed_out")
        r = _sign_in(c, name.upper())  # names are told apart without case
        assert r.status_code == 200 and r.json()["name"] == name
        assert c.get("/api/account").status_code == 200
    with client(accounts_server) as c:
        wrong = _sign_in(c, name, "not the password")
        unknown = _sign_in(c, _name("Nobody"), "not the password")
        _refused(wrong, 401, "bad_login")
        # The same answer for a wrong password and a name nobody has: no enumeration.
        assert wrong.json() == unknown.json() and wrong.status_code == unknown.status_code
        assert wrong.headers.get("set-cookie") is None
    paths = httpx.get(accounts_server.base + "/openapi.json").json()["paths"]
    assert {"post"} <= set(paths["/api/accounts"])
    assert {"post", "delete"} <= set(paths["/api/session"])
    assert {"get", "delete"} <= set(paths["/api/account"])
    assert {"post"} <= set(paths["/api/account/password"])
    assert {"get"} <= set(paths["/api/account/export"])
    assert {"delete"} <= set(paths["/api/sessions"])


def test_a_readable_marker_lives_beside_the_session_cookie(
    accounts_server: ServerProcess,
) -> None:
    """``pitch_signed_in=1`` (no secret; the page reads it to know that a session may
    be there) comes and goes with the session cookie, with its lifetime."""
    name = _name()
    with client(accounts_server) as c:
        for r in (_sign_up(c, name), c.get("/api/account"), _sign_in(c, name)):
            assert r.status_code in (200, 201), r.text
            marker = _cookie(r, "pitch_signed_in").lower()
            assert marker.startswith("pitch_signed_in=1;"), marker
            assert "httponly" not in marker, marker
            for part in ("samesite=lax", "path=/", "max-age=2592000"):
                assert part in marker, marker
        r = _delete(c, "/api/session")
        assert r.status_code == 204
        for cookie in ("pitch_session", "pitch_signed_in"):
            gone = _cookie(r, cookie).lower()
            assert "max-age=0" in gone and "path=/" in gone, gone
        assert "pitch_signed_in" not in c.cookies
        r = c.post(
            "/api/accounts",
            json={"name": _name(), "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert "secure" in _cookie(r, "pitch_signed_in").lower()


def test_a_session_over_tls_has_a_secure_cookie(accounts_server: ServerProcess) -> None:
    # Behind the trusted proxy that ends TLS (X-Forwarded-Proto: https).
    body = {"name": _name(), "password": PASSWORD}
    with client(accounts_server) as c:
        r = c.post("/api/accounts", json=body, headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 201, r.text
        assert "secure" in _cookie(r).lower()


def test_a_planted_session_id_is_never_the_signed_in_one(accounts_server: ServerProcess) -> None:
    # Session fixation: an attacker who got a cookie of theirs into the victim's browser
    # (its own account's, or a made-up id) must not share the session the victim opens.
    victim = _name("Vic")
    with client(accounts_server) as c:
        assert _sign_up(c, victim).status_code == 201
    with client(accounts_server) as attacker:
        assert _sign_up(attacker, _name("Eve")).status_code == 201
        planted = attacker.cookies["pitch_session"]
    for plant in (planted, secrets.token_urlsafe(32)):
        with client(accounts_server) as c:
            _plant(c, plant)
            r = _sign_in(c, victim)
            assert r.status_code == 200, r.text
            fresh = c.cookies["pitch_session"]
            assert fresh != plant
            assert c.get("/api/account").json()["name"] == victim
            with client(accounts_server) as other:
                _plant(other, plant)
                _refused(other.get("/api/account"), 401, "signed_out")


def test_a_stolen_session_id_is_worthless_after_sign_out(accounts_server: ServerProcess) -> None:
    with client(accounts_server) as c:
        assert _sign_up(c, _name()).status_code == 201
        stolen = c.cookies["pitch_session"]
        with client(accounts_server) as thief:
            _plant(thief, stolen)
            assert thief.get("/api/account").status_code == 200
            assert _delete(c, "/api/session").status_code == 204
            _refused(thief.get("/api/account"), 401, "signed_out")


def test_sign_out_everywhere(accounts_server: ServerProcess) -> None:
    name = _name()
    with client(accounts_server) as a, client(accounts_server) as b:
        assert _sign_up(a, name).status_code == 201
        assert _sign_in(b, name).status_code == 200
        assert _delete(b, "/api/sessions").status_code == 204
        _refused(a.get("/api/account"), 401, "signed_out")
        _refused(b.get("/api/account"), 401, "signed_out")


def test_a_new_password_ends_the_other_sessions(accounts_server: ServerProcess) -> None:
    name = _name()
    with client(accounts_server) as a, client(accounts_server) as b:
        assert _sign_up(a, name).status_code == 201
        assert _sign_in(b, name).status_code == 200
        old_a = a.cookies["pitch_session"]
        change = {"password": PASSWORD, "new_password": "a new pass phrase"}
        _refused(
            a.post("/api/account/password", json={**change, "password": "wrong one!"}),
            401,
            "bad_login",
        )
        _refused(
            a.post("/api/account/password", json={**change, "new_password": "short"}),
            422,
            "bad_password",
        )
        r = a.post("/api/account/password", json=change)
        assert r.status_code == 200, r.text
        assert a.cookies["pitch_session"] != old_a
        assert a.get("/api/account").status_code == 200
        _refused(b.get("/api/account"), 401, "signed_out")
    with client(accounts_server) as c:
        _refused(_sign_in(c, name), 401, "bad_login")
        assert _sign_in(c, name, "a new pass phrase").status_code == 200


def test_a_deleted_accounts_cookie_is_refused_and_its_games_stay(
    accounts_server: ServerProcess,
) -> None:
    name = _name()
    with client(accounts_server) as c:
        assert _sign_up(c, name).status_code == 201
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        t = c.post("/api/tables", json={"rules": {"players": 2}, "seats": seats}).json()["id"]
        assert c.post(f"/api/tables/{t}/seats/0", json={"name": "Ann"}).status_code == 200
        account_id = c.get("/api/account/export").json()["account"]["id"]
        cookie = c.cookies["pitch_session"]
        _refused(_delete(c, "/api/account", {"password": "not it at all"}), 401, "bad_login")
        assert _delete(c, "/api/account", {"password": PASSWORD}).status_code == 204
        _refused(c.get("/api/account"), 401, "signed_out")
    with client(accounts_server) as thief:
        _plant(thief, cookie)
        _refused(thief.get("/api/account"), 401, "signed_out")
        _refused(thief.get("/api/account/export"), 401, "signed_out")
        _refused(_sign_in(thief, name), 401, "bad_login")
        # Its games stay; its name stays taken (nobody may pass for someone gone).
        assert thief.get(f"/api/tables/{t}").status_code == 200
        _refused(_sign_up(thief, name), 409, "name_in_use")
        # The name the account had becomes "deleted player N": taken by nobody.
        _refused(_sign_up(thief, f"Deleted Player {account_id}"), 422, "name_reserved")


def test_names_follow_the_one_name_rule(accounts_server: ServerProcess) -> None:
    taken = "Joe " + secrets.token_hex(2)
    with client(accounts_server) as c:
        assert _sign_up(c, taken).status_code == 201
        cyrillic = taken.replace("J", "\u0408").replace("o", "\u043e").replace("e", "\u0435")
        assert cyrillic != taken
        _refused(
            _sign_up(c, cyrillic.split(" ")[0] + " " + taken.split(" ")[1]), 409, "name_in_use"
        )
        _refused(_sign_up(c, taken.upper()), 409, "name_in_use")
        _refused(_sign_up(c, "\uff2a" + taken[1:]), 409, "name_in_use")  # full-width J
        for bad in ("Ann\u202egnp", "A\u200bnn", "Ann\u2066x", "J\u043ee"):  # bidi, ZWSP, mixed
            _refused(_sign_up(c, bad), 422, "bad_name")
        for bot in ("Bot 2", "бот 3", "\u0412\u041e\u0422 7"):  # the last: Cyrillic ВОТ
            _refused(_sign_up(c, bot), 422, "name_reserved")
        _refused(_sign_up(c, "A" * 10_000), 422, "bad_request")
        _refused(_sign_up(c, "Ann " * 10), 422, "bad_name")  # 40 characters: past 32
        _refused(_sign_up(c, _name(), "short"), 422, "bad_password")
        _refused(_sign_up(c, _name(), "x" * 300), 422, "bad_password")
        _refused(_sign_up(c, _name(), "x" * 10_000), 422, "bad_request")


NEW_ROUTES = [
    ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD}),
    ("POST", "/api/session", {"name": "Zed", "password": PASSWORD}),
    ("DELETE", "/api/session", None),
    ("DELETE", "/api/sessions", None),
    ("POST", "/api/account/password", {"password": PASSWORD, "new_password": PASSWORD}),
    ("DELETE", "/api/account", {"password": PASSWORD}),
]


@pytest.mark.parametrize(("method", "path", "body"), NEW_ROUTES)
def test_no_change_from_another_site(
    accounts_server: ServerProcess, method: str, path: str, body: dict[str, Any] | None
) -> None:
    # A signed-in browser visiting another site: that page's request carries the
    # cookie (SameSite=Lax lets a top-level form POST through), so the guard must stop it.
    with client(accounts_server) as c:
        assert _sign_up(c, _name()).status_code == 201
        content = b"{}" if body is None else httpx.Request("POST", "/", json=body).content
        other = {**JSON, "Origin": "https://evil.example"}
        _refused(c.request(method, path, content=content, headers=other), 403, "other_site")
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        _refused(c.request(method, path, content=b"name=Zed", headers=form), 415, "not_json")
        _refused(c.request(method, path, content=content), 415, "not_json")  # no type at all
        assert c.get("/api/account").status_code == 200  # nothing of that happened


def test_a_guests_seats_become_the_accounts(accounts_server: ServerProcess) -> None:
    with client(accounts_server) as c:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
        t = c.post("/api/tables", json={"rules": {"players": 3}, "seats": seats}).json()["id"]
        held = c.post(f"/api/tables/{t}/seats/0", json={"name": "Ann"}).json()["token"]
        other = c.post(f"/api/tables/{t}/seats/1", json={"name": "Bo"}).json()["token"]
        forged = {"table": t, "token": secrets.token_urlsafe(32)}
        r = _sign_up(c, _name(), seats=[{"table": t, "token": held}, forged])
        assert r.status_code == 201 and r.json()["seats_linked"] == 1, r.text
        # Signed in, the seats taken from now on are the account's as they are taken.
        quick = c.post("/api/quickplay", json={"rules": {"players": 2}}).json()["table"]
        assert c.post(f"/api/tables/{quick}/quickseat", json={"name": "Ann"}).status_code == 200
        export = c.get("/api/account/export").json()
        got = sorted((s["table"], s["seat"]) for s in export["seats"])
        assert got == sorted([(t, 0), (quick, 0)])
        assert export["account"]["name"] == r.json()["name"]
        (session,) = export["sessions"]
        assert set(session) == {"created_at", "last_seen", "expires_at"}  # no id, no hash
        text = str(export)
        for secret in (c.cookies["pitch_session"], held, "argon2"):
            assert secret not in text
        # A seat another account already has is not taken over by a second one.
        with client(accounts_server) as d:
            r = _sign_up(
                d, _name(), seats=[{"table": t, "token": held}, {"table": t, "token": other}]
            )
            assert r.json()["seats_linked"] == 1
        too_many = [forged] * 51
        _refused(_sign_in(c, "x", seats=too_many), 422, "bad_request")


def test_a_seat_given_up_is_no_longer_the_accounts(accounts_server: ServerProcess) -> None:
    # A seat left before the game starts is open again: the next guest who takes it
    # must not sit there under this account.
    with client(accounts_server) as c:
        assert _sign_up(c, _name()).status_code == 201
        t = c.post("/api/tables", json={"rules": {"players": 3}}).json()["id"]
        with client(accounts_server) as guest:  # someone stays, so the table is kept
            assert guest.post(f"/api/tables/{t}/seats/1", json={"name": "Bo"}).status_code == 200
        token = c.post(f"/api/tables/{t}/seats/0", json={"name": "Ann"}).json()["token"]
        assert [s["table"] for s in c.get("/api/account/export").json()["seats"]] == [t]
        assert c.post(f"/api/tables/{t}/leave", json={"token": token}).status_code == 200
        assert c.get("/api/account/export").json()["seats"] == []


def test_a_finished_game_and_its_rematch_are_the_accounts(accounts_server: ServerProcess) -> None:
    base = accounts_server.base
    with client(accounts_server) as c:
        assert _sign_up(c, _name()).status_code == 201
        t = c.post("/api/tables", json={"rules": {"players": 2, "target": 1}}).json()["id"]
        mine = c.post(f"/api/tables/{t}/seats/0", json={"name": "Ann"}).json()["token"]
        theirs = httpx.post(f"{base}/api/tables/{t}/seats/1", json={"name": "Bo"}).json()["token"]

        async def both() -> None:
            players = [Player(base, t, tok, seed=i) for i, tok in enumerate([mine, theirs])]
            await asyncio.gather(*(p.play() for p in players))

        asyncio.run(both())
        r = c.post(f"/api/tables/{t}/rematch", json={"token": mine})
        assert r.status_code == 200, r.text
        new = r.json()["table"]
        seats = {s["table"]: s for s in c.get("/api/account/export").json()["seats"]}
        assert set(seats) == {t, new}
        assert seats[t]["status"] == "over" and seats[t]["winner"] is not None
        assert seats[new]["seat"] == 0
