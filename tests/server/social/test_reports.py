"""Reporting a player by the name a table shows, against a real server (docs/server.md,
"Friends and safety"): a chat line carries the seat's name, which need not be the
account's (a signed-in player may sit as "Bo" under "Bo 1a2b3c") and a guest has no
account at all; the report keeps the seat, the name as shown and the account, if any."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
from typing import Any

import httpx
import websockets

from pitch.store import Database
from pitch.store.social import ReportRow, SocialCaps, SocialStore
from tests.server.accounts.conftest import client
from tests.server.helpers import ServerProcess
from tests.server.social.conftest import member, together
from tests.support.timing import margin


def _table(*seated: tuple[httpx.Client, str]) -> tuple[str, list[str]]:
    """A table of ``len(seated)`` players, each client in its seat under the name given:
    in play. Its id and the seat tokens."""
    x = seated[0][0]
    r = x.post("/api/tables", json={"rules": {"players": len(seated)}})
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    tokens = []
    for seat, (c, name) in enumerate(seated):
        r = c.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        assert r.status_code == 200, r.text
        tokens.append(str(r.json()["token"]))
    assert x.get(f"/api/tables/{table}").json()["status"] == "playing"
    return table, tokens


def _say(srv: ServerProcess, table: str, token: str, text: str) -> None:
    """A chat line from the seat of ``token``, over the table's socket."""

    async def run() -> None:
        url = srv.base.replace("http", "ws", 1) + f"/ws/tables/{table}"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            await ws.send(json.dumps({"type": "chat", "text": text}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), margin(30)))
                if m["type"] == "chat" and m["text"] == text:
                    return

    asyncio.run(run())


def _report(c: httpx.Client, **body: Any) -> httpx.Response:
    return c.post("/api/reports", json={"reason": "abuse", **body})


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


def _stored(srv: ServerProcess, report_id: int) -> ReportRow:
    db = Database(srv.db_url, migrate=False)
    try:
        rows = SocialStore(db, SocialCaps()).reports()
    finally:
        db.close()
    (row,) = [r for r in rows if r.id == report_id]
    return row


def _cli(srv: ServerProcess, *more: str) -> str:
    r = subprocess.run(
        [sys.executable, "-m", "pitch", "reports", "list", "--db", srv.db_url, *more],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_chat_line_is_reported_by_the_seat_name(accounts_server: ServerProcess) -> None:
    ann, bo = member(accounts_server, "Ann"), member(accounts_server, "Bo")
    with together(ann, bo):
        table, tokens = _table((ann[0], "Ann"), (bo[0], "Bo"))  # Bo's account: "Bo 1a2b3c"
        words = f"you are bad {secrets.token_hex(3)}"
        _say(accounts_server, table, tokens[1], words)
        r = _report(ann[0], name="Bo", table=table, chat=words, text=words)
        assert r.status_code == 201, r.text
        row = _stored(accounts_server, r.json()["id"])
        assert (row.reported, row.name, row.seat, row.table, row.chat) == (
            bo[1],
            "Bo",
            1,
            table,
            words,
        )
        assert row.record is not None and words in [c["text"] for c in row.record["chat"]]
        # Folded as the table tells names apart; the account's name still works there.
        for name in ("bo", "ＢＯ", bo[1]):
            assert _report(ann[0], name=name, table=table).status_code == 201, name
        # Nobody at this table goes by these (a name of no seat nor account; none at all).
        for name in ("Cy", "B o", "Bo\u200b"):
            _refused(_report(ann[0], name=name, table=table), 404, "no_such_player")
        # Her own seat is herself, under whichever name.
        _refused(_report(ann[0], name="Ann", table=table), 409, "self")
        _refused(_report(ann[0], name="ANN", table=table), 409, "self")
        text = _cli(accounts_server)
        assert f"{ann[1]} reported Bo (seat 1, account {bo[1]})" in text, text
        # Her export says whom she reported as she saw them, not whose account it is.
        filed = ann[0].get("/api/account/export").json()["social"]["reports_filed"]
        assert ("Bo", 1) in [(f["name"], f["seat"]) for f in filed], filed


def test_a_guests_seat_is_reported_without_an_account(accounts_server: ServerProcess) -> None:
    ann, cy = member(accounts_server, "Ann"), member(accounts_server, "Cy")
    with together(ann, cy), client(accounts_server) as guest:
        # The guest sits under a name that is also another player's account: the report
        # is about the seat, never about that account.
        table, tokens = _table((ann[0], "Ann"), (guest, cy[1]))
        _say(accounts_server, table, tokens[1], "spam spam spam")
        r = _report(ann[0], name=cy[1], table=table, chat="spam spam spam", reason="spam")
        assert r.status_code == 201, r.text
        row = _stored(accounts_server, r.json()["id"])
        assert (row.reported, row.name, row.seat, row.table) == (None, cy[1], 1, table)
        # Without the table the name is the account's, as before.
        r = _report(ann[0], name=cy[1], reason="name")
        assert r.status_code == 201, r.text
        row = _stored(accounts_server, r.json()["id"])
        assert (row.reported, row.name, row.seat, row.table) == (cy[1], cy[1], None, None)
        text = _cli(accounts_server)
        assert f"{ann[1]} reported {cy[1]} (seat 1, guest)" in text, text
        assert f"{ann[1]} reported {cy[1]} (account {cy[1]})" in text, text
        got = [
            json.loads(line)
            for line in _cli(accounts_server, "--json").splitlines()
            if json.loads(line)["table"] == table
        ]
        assert [(g["reported"], g["reported_name"], g["reported_seat"]) for g in got] == [
            (None, cy[1], 1)
        ]
