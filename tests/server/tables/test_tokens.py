"""Seats are secured by their tokens: nobody acts for another seat."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.server.helpers import ServerProcess, claim, create_table, human_table
from tests.support.tables import ws_url


async def _exchange(url: str, *msgs: dict[str, Any], want: int) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    async with websockets.connect(url) as ws:
        for m in msgs:
            await ws.send(json.dumps(m))
        while len(got) < want:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    return got


def test_wrong_and_foreign_tokens_are_refused(server: ServerProcess) -> None:
    base = server.base
    table, claims = human_table(base)
    url = ws_url(base, table)
    state = httpx.get(f"{base}/api/tables/{table}/state").json()
    turn = state["game"]["turn"]
    other = (turn + 1) % 4

    # A made-up token gets no seat; acting without a seat is refused.
    got = asyncio.run(
        _exchange(
            url,
            {"type": "auth", "token": "x" * 43},
            {"type": "action", "action": "pass"},
            want=2,
        )
    )
    assert [m["code"] for m in got] == ["bad_token", "not_authenticated"]

    # Another seat's token: acting for the seat to move is impossible; it is not your turn.
    got = asyncio.run(
        _exchange(
            url,
            {"type": "auth", "token": claims[other]["token"]},
            {"type": "action", "action": "pass"},
            want=3,
        )
    )
    assert got[0]["type"] == "welcome" and got[0]["seat"] == other
    assert got[1]["type"] == "state" and got[1]["seat"] == other
    assert got[2]["code"] == "not_your_turn" and got[2]["turn"] == turn

    # A spectator cannot act either, and sees no hand.
    got = asyncio.run(
        _exchange(url, {"type": "spectate"}, {"type": "action", "action": "pass"}, want=3)
    )
    assert got[1]["game"]["hand"] is None
    assert got[2]["code"] == "spectator"

    # Nothing was played: the state did not move.
    after = httpx.get(f"{base}/api/tables/{table}/state").json()
    assert after["seq"] == state["seq"] == 1

    # The right token acts; an illegal action gets the rule id as its code.
    got = asyncio.run(
        _exchange(
            url,
            {"type": "auth", "token": claims[turn]["token"]},
            {"type": "action", "action": "As"},
            want=3,
        )
    )
    assert got[2]["type"] == "error" and got[2]["code"].startswith("R")
    assert "pass" in got[2]["legal"] or "bid 2" in got[2]["legal"]


def test_tokens_are_secret(server: ServerProcess, tmp_path: Path) -> None:
    base = server.base
    t = create_table(base, {"rules": {"players": 2}})
    c = claim(base, t["id"], 0, "ann")
    assert len(c["token"]) >= 40
    r = httpx.post(f"{base}/api/tables/{t['id']}/seats/0", json={"name": "eve"})
    assert r.status_code == 409
    public = httpx.get(f"{base}/api/tables/{t['id']}").text
    public += httpx.get(f"{base}/api/tables/{t['id']}/state").text
    assert c["token"] not in public
    if server.db_url.startswith("sqlite:///"):
        db = Path(server.db_url.removeprefix("sqlite:///"))
        stored = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
        assert c["token"].encode() not in stored
