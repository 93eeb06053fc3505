"""Passkeys against a real server (docs/server.md, "Passkeys"), answered by a software
authenticator (tests/server/accounts/softkey.py): adding, listing, removing, signing in
without a name; and hostile answers: an unknown passkey, a replayed, foreign or
missing challenge, another site's origin or relying party, another account's
passkey, no user verification, malformed and oversized fields, too many passkeys,
too many requests."""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx

from pitch.server.accounts.passkeys import PASSKEY_OPTIONS_PER_MINUTE
from tests.server.accounts.conftest import client
from tests.server.accounts.softkey import UP, SoftKey, b64
from tests.server.helpers import ServerProcess
from tests.support.timing import came_back

PASSWORD = "correct horse battery"


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


def _del(c: httpx.Client, url: str) -> httpx.Response:
    return c.delete(url, headers={"Content-Type": "application/json"})


def _account(c: httpx.Client) -> str:
    name = f"Pia {secrets.token_hex(3)}"
    assert c.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    return name


def _creation(c: httpx.Client) -> dict[str, Any]:
    r = c.post("/api/account/passkeys/options", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _add(c: httpx.Client, key: SoftKey, srv: ServerProcess, label: str = "phone") -> httpx.Response:
    credential = key.create(_creation(c), srv.base)
    return c.post("/api/account/passkeys", json={"credential": credential, "label": label})


def _request(c: httpx.Client) -> dict[str, Any]:
    r = c.post("/api/session/passkey/options", json={})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _sign_in(c: httpx.Client, credential: dict[str, Any]) -> httpx.Response:
    return c.post("/api/session/passkey", json={"credential": credential})


def test_add_sign_in_without_a_name_list_export_remove(accounts_server: ServerProcess) -> None:
    srv, key = accounts_server, SoftKey()
    with client(srv) as c:
        name = _account(c)
        options = _creation(c)
        assert options["rp"]["id"] == "127.0.0.1"  # the host the request came to
        assert options["authenticatorSelection"]["residentKey"] == "required"
        assert options["authenticatorSelection"]["userVerification"] == "required"
        credential = key.create(options, srv.base)
        r = c.post("/api/account/passkeys", json={"credential": credential, "label": " my  phone "})
        assert r.status_code == 201, r.text
        added = r.json()
        assert added["label"] == "my phone" and added["last_used"] is None
        assert _del(c, "/api/session").status_code == 204
    with client(srv) as other:  # another browser: no name typed
        options = _request(other)
        assert options["rpId"] == "127.0.0.1" and options["allowCredentials"] == []
        assert options["userVerification"] == "required"
        r = _sign_in(other, key.get(options, srv.base))
        assert r.status_code == 200, r.text
        assert r.json()["name"] == name
        assert any(h.startswith("pitch_session=") for h in r.headers.get_list("set-cookie"))
        assert other.get("/api/account").json()["name"] == name
        listed = other.get("/api/account/passkeys").json()
        assert [(p["id"], p["label"]) for p in listed] == [(added["id"], "my phone")]
        assert listed[0]["last_used"] is not None
        export = other.get("/api/account/export").json()
        assert [p["label"] for p in export["passkeys"]] == ["my phone"]
        assert b64(key.credential_id) not in str(export)  # no credential id, no key
        assert _del(other, f"/api/account/passkeys/{added['id']}").status_code == 204
        assert other.get("/api/account/passkeys").json() == []
        _refused(_del(other, f"/api/account/passkeys/{added['id']}"), 404, "no_passkey")
    with client(srv) as third:  # a removed passkey signs nobody in
        _refused(_sign_in(third, key.get(_request(third), srv.base)), 401, "bad_passkey")


def test_a_challenge_is_used_once_and_only_by_who_asked(accounts_server: ServerProcess) -> None:
    srv, key = accounts_server, SoftKey()
    with client(srv) as c, client(srv) as elsewhere:
        name = _account(c)
        assert _add(c, key, srv).status_code == 201
        # Registration: an answer to a challenge made for another session of the same
        # account, and the same answer twice (its challenge is used).
        r = elsewhere.post("/api/session", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        theirs = SoftKey().create(_creation(elsewhere), srv.base)
        _refused(c.post("/api/account/passkeys", json={"credential": theirs}), 401, "bad_passkey")
        again = SoftKey()
        options = _creation(c)
        first = again.create(options, srv.base)
        assert c.post("/api/account/passkeys", json={"credential": first}).status_code == 201
        replay = SoftKey().create(options, srv.base)
        _refused(c.post("/api/account/passkeys", json={"credential": replay}), 401, "bad_passkey")
    with client(srv) as a, client(srv) as b:
        options = _request(a)
        answer = key.get(options, srv.base)
        # b never asked: it has no cookie for a's challenge; then b's own cookie is
        # for its own challenge, not a's.
        _refused(_sign_in(b, answer), 401, "bad_passkey")
        _request(b)
        _refused(_sign_in(b, answer), 401, "bad_passkey")
        assert _sign_in(a, answer).status_code == 200
        _refused(_sign_in(a, answer), 401, "bad_passkey")  # replayed
        # A new challenge, but the counter going back: a cloned authenticator.
        _refused(_sign_in(a, key.get(_request(a), srv.base, count=1)), 401, "bad_passkey")
        # A challenge the server never made.
        made_up = dict(_request(a), challenge=b64(secrets.token_bytes(32)))
        _refused(_sign_in(a, key.get(made_up, srv.base)), 401, "bad_passkey")
        assert _sign_in(a, key.get(_request(a), srv.base)).status_code == 200


def test_another_site_or_an_unverified_user_is_refused(accounts_server: ServerProcess) -> None:
    srv, key = accounts_server, SoftKey()
    with client(srv) as c:
        _account(c)
        for lie in (
            {"origin": "https://evil.example"},
            {"rp_id": "evil.example"},
            {"flags": UP | 0x40},  # present, not verified
        ):
            origin = lie.pop("origin", srv.base)
            credential = SoftKey().create(_creation(c), str(origin), **lie)  # type: ignore[arg-type]
            r = c.post("/api/account/passkeys", json={"credential": credential})
            _refused(r, 401, "bad_passkey")
        assert c.get("/api/account/passkeys").json() == []
        assert _add(c, key, srv).status_code == 201
    for lie in ({"origin": "https://evil.example"}, {"rp_id": "evil.example"}, {"flags": UP}):
        with client(srv) as d:
            origin = lie.pop("origin", srv.base)
            answer = key.get(_request(d), str(origin), **lie)  # type: ignore[arg-type]
            _refused(_sign_in(d, answer), 401, "bad_passkey")
    # A page of another site cannot even ask (the Origin check of every POST).
    with client(srv) as e:
        r = e.post(
            "/api/session/passkey/options", json={}, headers={"Origin": "https://evil.example"}
        )
        _refused(r, 403, "other_site")


def test_another_accounts_passkey(accounts_server: ServerProcess) -> None:
    srv, mine, theirs = accounts_server, SoftKey(), SoftKey()
    with client(srv) as a, client(srv) as b:
        _account(a)
        _account(b)
        assert _add(a, mine, srv).status_code == 201
        theirs_added = _add(b, theirs, srv).json()
        # b's passkey registered again by a: one credential, one account.
        twin = SoftKey()
        twin.key, twin.credential_id = theirs.key, theirs.credential_id
        _refused(_add(a, twin, srv), 409, "passkey_known")
        # a cannot remove b's passkey.
        _refused(_del(a, f"/api/account/passkeys/{theirs_added['id']}"), 404, "no_passkey")
    with client(srv) as c:
        # a's credential id signed with b's key; a's credential claiming b's user handle.
        forged = theirs.get(_request(c), srv.base)
        forged["id"] = forged["rawId"] = b64(mine.credential_id)
        _refused(_sign_in(c, forged), 401, "bad_passkey")
        forged = theirs.get(_request(c), srv.base)
        forged["id"] = b64(mine.credential_id)  # looked up as a's, signed as b's
        _refused(_sign_in(c, forged), 401, "bad_passkey")
        wrong_user = mine.get(_request(c), srv.base)
        wrong_user["response"]["userHandle"] = theirs.user_handle
        _refused(_sign_in(c, wrong_user), 401, "bad_passkey")
        unknown = SoftKey()
        unknown.user_handle = mine.user_handle
        _refused(_sign_in(c, unknown.get(_request(c), srv.base)), 401, "bad_passkey")


def test_malformed_and_oversized_answers(accounts_server: ServerProcess) -> None:
    srv, key = accounts_server, SoftKey()
    with client(srv) as c:
        _account(c)
        good = key.create(_creation(c), srv.base)

        def sent(credential: dict[str, Any], **more: Any) -> httpx.Response:
            return c.post("/api/account/passkeys", json={"credential": credential, **more})

        bad_b64 = {**good, "response": {**good["response"], "clientDataJSON": "not base64!"}}
        _refused(sent(bad_b64), 422, "bad_request")
        _refused(sent({**good, "id": "A" * 1367, "rawId": "A" * 1367}), 422, "bad_request")
        big = {**good, "response": {**good["response"], "attestationObject": "A" * 16385}}
        _refused(sent(big), 422, "bad_request")
        _refused(sent({**good, "type": "password"}), 422, "bad_request")
        _refused(sent(good, label="x" * 41), 422, "bad_name")
        _refused(sent(good, label="a\u202eb"), 422, "bad_name")
        huge = c.post(
            "/api/account/passkeys",
            content=b'{"credential": "' + b"A" * 70_000 + b'"}',
            headers={"Content-Type": "application/json"},
        )
        _refused(huge, 413, "too_large")
        # A challenge survives a refused shape: the right answer still goes in.
        assert sent(good).status_code == 201
        not_json = {**good, "response": {**good["response"], "clientDataJSON": b64(b"{nope")}}
        _refused(sent(not_json), 401, "bad_passkey")
        deep = {**good, "response": {**good["response"], "clientDataJSON": b64(b"[" * 3000)}}
        _refused(sent(deep), 401, "bad_passkey")
        fresh = SoftKey().create(_creation(c), srv.base)
        deep_cbor = b64(b"\x81" * 12000 + b"\x00")
        cbor = {**fresh, "response": {**fresh["response"], "attestationObject": deep_cbor}}
        _refused(sent(cbor), 401, "bad_passkey")
        fresh = SoftKey().create(_creation(c), srv.base)
        no_cbor = {
            **fresh,
            "response": {**fresh["response"], "attestationObject": b64(b"\xff" * 9)},
        }
        _refused(sent(no_cbor, label="x"), 401, "bad_passkey")
        # Signing in: garbage in every field.
        for credential in (
            {"id": "x", "rawId": "x", "type": "public-key", "response": {}},
            {**key.get(_request(c), srv.base), "type": 5},
        ):
            _refused(_sign_in(c, credential), 422, "bad_request")
        _refused(c.post("/api/session/passkey", json={}), 422, "bad_request")
        # A guest may not ask to add one.
    with client(srv) as guest:
        _refused(
            guest.post("/api/account/passkeys/options", json={"password": "x" * 8}),
            401,
            "signed_out",
        )
        _refused(guest.get("/api/account/passkeys"), 401, "signed_out")


def test_adding_asks_for_the_password_and_stops_at_ten(accounts_server: ServerProcess) -> None:
    srv = accounts_server
    with client(srv) as c:
        _account(c)
        r = c.post("/api/account/passkeys/options", json={"password": "not the password"})
        _refused(r, 401, "bad_login")
        for _ in range(10):
            assert _add(c, SoftKey(), srv).status_code == 201
        options = c.post("/api/account/passkeys/options", json={"password": PASSWORD})
        _refused(options, 409, "too_many_passkeys")
        assert options.json()["limit"] == 10
        assert len(c.get("/api/account/passkeys").json()) == 10


def test_too_many_requests_and_failures(accounts_server: ServerProcess) -> None:
    srv = accounts_server
    with client(srv) as c:
        # 20 a minute: the 21st is refused, unless the requests took long enough (a
        # loaded machine) for the allowance to come back, one every 3 s.
        start = time.monotonic()
        codes = [c.post("/api/session/passkey/options", json={}).status_code for _ in range(20)]
        assert codes == [200] * 20
        while (code := c.post("/api/session/passkey/options", json={}).status_code) != 429:
            assert code == 200
            codes.append(code)
            back = came_back(start, PASSKEY_OPTIONS_PER_MINUTE)
            assert len(codes) <= 20 + back, f"{len(codes)} taken, {back} came back"
    with client(srv) as d:
        name = _account(d)
        _del(d, "/api/session")
        # Failed passkey sign-ins count against the address as failed passwords do.
        forged = SoftKey().get({"rpId": "127.0.0.1", "challenge": b64(bytes(32))}, srv.base)
        codes = [_sign_in(d, forged).status_code for _ in range(11)]
        assert codes[:10] == [401] * 10 and codes[10] == 429, codes
        r = d.post("/api/session", json={"name": name, "password": PASSWORD})
        _refused(r, 429, "too_many_attempts")


def test_a_deleted_accounts_passkeys_go(accounts_server: ServerProcess) -> None:
    srv, key = accounts_server, SoftKey()
    with client(srv) as c:
        _account(c)
        assert _add(c, key, srv).status_code == 201
        r = c.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 204
    with client(srv) as d:
        _refused(_sign_in(d, key.get(_request(d), srv.base)), 401, "bad_passkey")
