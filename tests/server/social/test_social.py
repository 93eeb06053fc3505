"""Friends and safety against a real server (docs/server.md, "Friends and safety"): the
contract end to end for two and three accounts, repeats, refusals, hostile input,
caps, and what deletion and export do."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from typing import Any

import httpx

from tests.server.accounts.conftest import client
from tests.server.helpers import ServerProcess
from tests.server.social.conftest import PASSWORD, member, together

JSON = {"Content-Type": "application/json"}


def _social(c: httpx.Client) -> dict[str, Any]:
    r = c.get("/api/social")
    assert r.status_code == 200, r.text
    return dict(r.json())


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


def _delete(c: httpx.Client, url: str) -> httpx.Response:
    return c.delete(url, headers=JSON)


def _friends(a: tuple[httpx.Client, str], b: tuple[httpx.Client, str]) -> None:
    assert a[0].post("/api/friends", json={"name": b[1]}).json() == {"state": "requested"}
    assert b[0].post("/api/friends", json={"name": a[1]}).json() == {"state": "friends"}


def _playing_table(x: httpx.Client, y: httpx.Client) -> str:
    """A heads-up table both signed-in clients sit at: in play, their accounts' seats."""
    r = x.post("/api/tables", json={"rules": {"players": 2}})
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    for seat, c in enumerate((x, y)):
        r = c.post(f"/api/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
        assert r.status_code == 200, r.text
    assert x.get(f"/api/tables/{table}").json()["status"] == "playing"
    return table


def test_two_players_become_friends_see_each_other_and_part(accounts_server: ServerProcess) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        empty = {"friends": [], "incoming": [], "outgoing": [], "blocked": [], "invites": []}
        assert _social(ann[0]) == empty
        r = ann[0].post("/api/friends", json={"name": bob[1].upper()})  # folded like sign-in
        assert r.status_code == 200 and r.json() == {"state": "requested"}, r.text
        # A repeat is the same request.
        assert ann[0].post("/api/friends", json={"name": bob[1]}).json() == {"state": "requested"}
        assert _social(ann[0])["outgoing"] == [bob[1]]
        assert _social(bob[0])["incoming"] == [ann[1]]
        assert bob[0].post("/api/friends", json={"name": ann[1]}).json() == {"state": "friends"}
        assert ann[0].post("/api/friends", json={"name": bob[1]}).json() == {"state": "friends"}
        for me, them in ((ann, bob), (bob, ann)):
            s = _social(me[0])
            # Both made a request just now: both are online, at no table.
            assert s["friends"] == [{"name": them[1], "online": True, "table": None}], s
            assert s["incoming"] == s["outgoing"] == []
        table = _playing_table(ann[0], bob[0])
        assert _social(ann[0])["friends"][0]["table"] == table
        assert _delete(ann[0], f"/api/friends/{bob[1]}").status_code == 204
        assert _social(ann[0]) == empty and _social(bob[0])["friends"] == []
        assert _delete(ann[0], f"/api/friends/{bob[1]}").status_code == 204  # again: the same
        paths = ann[0].get("/openapi.json").json()["paths"]  # in /docs, with their shapes
        for path in (
            "/api/social",
            "/api/friends",
            "/api/blocks/{name}",
            "/api/invites/{invite_id}",
            "/api/reports",
        ):
            assert path in paths, path


def test_declining_and_withdrawing_requests_among_three(accounts_server: ServerProcess) -> None:
    ann, bob, cy = (member(accounts_server, n) for n in ("Ann", "Bob", "Cy"))
    with together(ann, bob, cy):
        for other in (bob, cy):
            ann[0].post("/api/friends", json={"name": other[1]})
        assert set(_social(ann[0])["outgoing"]) == {bob[1], cy[1]}
        assert _delete(bob[0], f"/api/friends/{ann[1]}").status_code == 204  # declined
        assert _delete(ann[0], f"/api/friends/{cy[1]}").status_code == 204  # withdrawn
        assert _social(ann[0])["outgoing"] == [] and _social(cy[0])["incoming"] == []
        _friends(bob, cy)
        assert [f["name"] for f in _social(bob[0])["friends"]] == [cy[1]]
        assert _social(ann[0])["friends"] == []


def test_guests_and_other_sites_are_refused(accounts_server: ServerProcess) -> None:
    ann = member(accounts_server)
    with client(accounts_server) as guest, together(ann):
        _refused(guest.get("/api/social"), 401, "signed_out")
        _refused(guest.post("/api/friends", json={"name": ann[1]}), 401, "signed_out")
        _refused(guest.post("/api/blocks", json={"name": ann[1]}), 401, "signed_out")
        _refused(guest.post("/api/invites", json={"name": ann[1], "table": "x"}), 401, "signed_out")
        body = {"name": ann[1], "reason": "spam"}
        _refused(guest.post("/api/reports", json=body), 401, "signed_out")
        _refused(_delete(guest, "/api/invites/1"), 401, "signed_out")
        bob = member(accounts_server, "Bob")
        with together(bob):
            evil = {"Origin": "https://evil.example"}
            for r in (
                bob[0].post("/api/friends", json={"name": ann[1]}, headers=evil),
                bob[0].post("/api/blocks", json={"name": ann[1]}, headers=evil),
                bob[0].request("DELETE", f"/api/blocks/{ann[1]}", headers={**evil, **JSON}),
                bob[0].post("/api/reports", json=body, headers=evil),
            ):
                _refused(r, 403, "other_site")
            _refused(
                bob[0].post(
                    "/api/friends",
                    content=f"name={ann[1]}",
                    headers={"Content-Type": "application/x-www-form-urlencoded"},
                ),
                415,
                "not_json",
            )
            assert _social(ann[0])["incoming"] == [] and _social(bob[0])["blocked"] == []


def test_unknown_hostile_and_self(accounts_server: ServerProcess) -> None:
    ann, gone = member(accounts_server), member(accounts_server, "Gone")
    with together(ann, gone):
        assert (
            gone[0].request("DELETE", "/api/account", json={"password": PASSWORD}).status_code
            == 204
        )
        for name in ("Nobody " + "x" * 8, gone[1], "deleted player 1", "A\u202enna", "Ann\u200b"):
            _refused(ann[0].post("/api/friends", json={"name": name}), 404, "no_such_player")
            _refused(ann[0].post("/api/blocks", json={"name": name}), 404, "no_such_player")
        _refused(ann[0].post("/api/friends", json={"name": ann[1]}), 409, "self")
        _refused(ann[0].post("/api/blocks", json={"name": ann[1].lower()}), 409, "self")
        for body in (
            {"name": "x" * 10_000},
            {"name": ""},
            {"name": 5},
            {"name": ann[1], "more": 1},
            {},
        ):
            _refused(ann[0].post("/api/friends", json=body), 422, "bad_request")
        garbled = ann[0].post("/api/friends", content=b"{not json", headers=JSON)
        _refused(garbled, 422, "bad_request")
        huge = b'{"name": "' + b"x" * (1 << 20) + b'"}'
        _refused(ann[0].post("/api/friends", content=huge, headers=JSON), 413, "too_large")
        r = ann[0].delete("/api/friends/" + "x" * 10_000, headers=JSON)
        assert r.status_code in (414, 422), r.status_code
        for bad in ("0", "-1", str(2**63), "x"):
            _refused(_delete(ann[0], f"/api/invites/{bad}"), 422, "bad_request")
        _refused(_delete(ann[0], "/api/invites/12345"), 404, "no_invite")
        assert _social(ann[0])["outgoing"] == []


def test_a_block_either_way_ends_everything_and_is_one_answer(
    accounts_server: ServerProcess,
) -> None:
    ann, bob, cy = (member(accounts_server, n) for n in ("Ann", "Bob", "Cy"))
    with together(ann, bob, cy):
        _friends(ann, bob)
        table = _playing_table(ann[0], cy[0])
        r = ann[0].post("/api/invites", json={"name": bob[1], "table": table})
        assert r.status_code == 201, r.text
        bob[0].post("/api/friends", json={"name": cy[1]})
        assert bob[0].post("/api/blocks", json={"name": ann[1]}).status_code == 200
        assert bob[0].post("/api/blocks", json={"name": ann[1]}).status_code == 200  # a repeat
        assert _social(bob[0])["blocked"] == [ann[1]]
        for me in (ann, bob):
            s = _social(me[0])
            assert s["friends"] == [] and s["invites"] == [] and s["incoming"] == [], s
        # The same refusal whoever blocked whom: it never tells who did.
        a = ann[0].post("/api/friends", json={"name": bob[1]})
        b = bob[0].post("/api/friends", json={"name": ann[1]})
        _refused(a, 409, "blocked")
        _refused(b, 409, "blocked")
        assert a.json() == b.json()
        _refused(ann[0].post("/api/invites", json={"name": bob[1], "table": table}), 409, "blocked")
        assert _social(bob[0])["outgoing"] == [cy[1]]  # others are not touched
        assert _delete(bob[0], f"/api/blocks/{ann[1]}").status_code == 204
        assert _social(bob[0])["blocked"] == []
        assert ann[0].post("/api/friends", json={"name": bob[1]}).json() == {"state": "requested"}


def test_invites_go_to_friends_at_tables_in_play(accounts_server: ServerProcess) -> None:
    ann, bob, cy = (member(accounts_server, n) for n in ("Ann", "Bob", "Cy"))
    with together(ann, bob, cy):
        _friends(ann, bob)
        table = _playing_table(ann[0], cy[0])
        _refused(
            ann[0].post("/api/invites", json={"name": cy[1], "table": table}), 409, "not_friends"
        )
        _refused(
            ann[0].post("/api/invites", json={"name": bob[1], "table": "nosuchtable"}),
            404,
            "no_table",
        )
        _refused(
            ann[0].post("/api/invites", json={"name": bob[1], "table": "../x"}), 422, "bad_request"
        )
        r = ann[0].post("/api/invites", json={"name": bob[1], "table": table})
        assert r.status_code == 201, r.text
        first = r.json()["id"]
        again = ann[0].post("/api/invites", json={"name": bob[1], "table": table})
        assert again.status_code == 201 and again.json()["id"] == first  # one per table
        invites = _social(bob[0])["invites"]
        assert len(invites) == 1 and invites[0]["id"] == first, invites
        assert invites[0]["from"] == ann[1] and invites[0]["table"] == table
        assert invites[0]["sent"].endswith(("Z", "+00:00"))
        assert _social(ann[0])["invites"] == []  # the sender's lobby shows none
        _refused(_delete(cy[0], f"/api/invites/{first}"), 404, "no_invite")  # not cy's
        assert _delete(bob[0], f"/api/invites/{first}").status_code == 204
        assert _social(bob[0])["invites"] == []
        r = ann[0].post("/api/invites", json={"name": bob[1], "table": table})
        assert _delete(ann[0], f"/api/invites/{r.json()['id']}").status_code == 204  # withdrawn
        assert _social(bob[0])["invites"] == []


def test_reports_keep_the_record(accounts_server: ServerProcess) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        table = _playing_table(ann[0], bob[0])
        body = {
            "name": bob[1],
            "table": table,
            "chat": "you are bad",
            "reason": "abuse",
            "text": "rude in chat",
        }
        r = ann[0].post("/api/reports", json=body)
        assert r.status_code == 201 and r.json()["id"] >= 1, r.text
        assert (
            ann[0].post("/api/reports", json={"name": bob[1], "reason": "name"}).status_code == 201
        )  # no table, no friendship needed
        for bad in (
            {**body, "reason": "ugly"},
            {**body, "text": "x" * 2001},
            {**body, "chat": "x" * 801},
            {**body, "table": "x" * 33},
            {**body, "name": "x" * 10_000},
        ):
            _refused(ann[0].post("/api/reports", json=bad), 422, "bad_request")
        _refused(ann[0].post("/api/reports", json={**body, "text": "x" * 501}), 422, "bad_text")
        _refused(ann[0].post("/api/reports", json={**body, "chat": "a\u202eb"}), 422, "bad_text")
        _refused(ann[0].post("/api/reports", json={**body, "table": "nosuch"}), 404, "no_table")
        _refused(ann[0].post("/api/reports", json={**body, "name": ann[1]}), 409, "self")
        filed = ann[0].get("/api/account/export").json()["social"]["reports_filed"]
        assert [(f["name"], f["reason"]) for f in filed] == [(bob[1], "abuse"), (bob[1], "name")]


def test_reports_a_day_are_capped(accounts_server: ServerProcess) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        for _ in range(20):
            r = ann[0].post("/api/reports", json={"name": bob[1], "reason": "spam"})
            assert r.status_code == 201, r.text
        r = ann[0].post("/api/reports", json={"name": bob[1], "reason": "spam"})
        _refused(r, 409, "social_limit")
        assert r.json()["limit"] == 20


def test_outgoing_requests_are_capped(accounts_server: ServerProcess) -> None:
    ann = member(accounts_server, "Ann")
    others = [member(accounts_server, "Req") for _ in range(101)]
    try:
        for _c, name in others[:100]:
            assert ann[0].post("/api/friends", json={"name": name}).status_code == 200
        r = ann[0].post("/api/friends", json={"name": others[100][1]})
        _refused(r, 409, "social_limit")
        assert r.json()["limit"] == 100
        # Accepting a request is not another one waiting: it makes a friend.
        assert others[100][0].post("/api/friends", json={"name": ann[1]}).status_code == 200
        assert ann[0].post("/api/friends", json={"name": others[100][1]}).json() == {
            "state": "friends"
        }
        assert len(_social(ann[0])["outgoing"]) == 100
    finally:
        ann[0].close()
        for c, _ in others:
            c.close()


def test_deletion_forgets_and_export_tells(accounts_server: ServerProcess) -> None:
    ann, bob, cy = (member(accounts_server, n) for n in ("Ann", "Bob", "Cy"))
    with together(ann, bob, cy):
        _friends(ann, bob)
        ann[0].post("/api/friends", json={"name": cy[1]})
        bob[0].post("/api/blocks", json={"name": cy[1]})
        table = _playing_table(ann[0], cy[0])
        ann[0].post("/api/invites", json={"name": bob[1], "table": table})
        ann[0].post("/api/reports", json={"name": cy[1], "reason": "other", "text": "hm"})
        data = ann[0].get("/api/account/export").json()["social"]
        assert [f["name"] for f in data["friends"]] == [bob[1]]
        assert [f["name"] for f in data["requests_sent"]] == [cy[1]]
        assert [i["to"] for i in data["invites_sent"]] == [bob[1]]
        assert data["reports_filed"][0]["text"] == "hm"
        received = bob[0].get("/api/account/export").json()["social"]
        assert [i["from"] for i in received["invites_received"]] == [ann[1]]
        assert [b["name"] for b in received["blocked"]] == [cy[1]]
        assert (
            ann[0].request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
        )
        assert _social(bob[0])["friends"] == [] and _social(bob[0])["invites"] == []
        assert _social(cy[0])["incoming"] == []


def test_the_operator_lists_reports_with_the_record(accounts_server: ServerProcess) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        table = _playing_table(ann[0], bob[0])
        words = f"cheats {secrets.token_hex(4)}"
        body = {"name": bob[1], "table": table, "reason": "cheating", "text": words}
        assert ann[0].post("/api/reports", json=body).status_code == 201

        def cli(*more: str) -> str:
            r = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pitch",
                    "reports",
                    "list",
                    "--db",
                    accounts_server.db_url,
                    *more,
                ],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert r.returncode == 0, r.stderr
            return r.stdout

        rows = [json.loads(line) for line in cli("--json").splitlines()]
        mine = [x for x in rows if x["text"] == words]
        assert len(mine) == 1, rows
        got = mine[0]
        assert (got["reporter"], got["reported"], got["reason"], got["table"]) == (
            ann[1],
            bob[1],
            "cheating",
            table,
        )
        rec = got["record"]
        assert rec["table"] == table and rec["status"] == "playing"
        assert [s["name"] for s in rec["seats"]] == ["p0", "p1"]
        assert rec["rules"]["players"] == 2 and rec["hands"] == []
        text = cli()
        assert f"{ann[1]} reported {bob[1]}" in text and words in text and table in text
