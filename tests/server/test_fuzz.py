"""Thousands of malformed and hostile messages: every one gets an error, the server
never crashes, and a game at another table plays on to the end."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
import websockets

from pitch.server.tables.protocol import ERROR_CODES
from tests.server.helpers import Player, ServerProcess, human_table
from tests.support.tables import ws_url


def hostile(rng: random.Random, token: str) -> str | bytes:
    kind = rng.randrange(14)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 40)))
    if kind == 2:
        return "x" * rng.choice([1025, 2000, 4000])
    if kind == 3:
        return "[" * 1500 + "]" * 1500
    if kind == 4:
        return json.dumps({"type": rng.choice(["", "act", "AUTH", "__proto__", "state", 7])})
    if kind == 5:
        return json.dumps({"type": "action", "action": rng.choice([-1, 57, 10**30, 3.5, None])})
    if kind == 6:
        return json.dumps({"type": "action", "action": rng.choice(["bid 9", "Zz", "", "pass" * 9])})
    if kind == 7:
        return json.dumps({"type": "auth", "token": rng.choice(["", "a" * 500, 5, None])})
    if kind == 8:
        return json.dumps({"type": "auth", "token": token + "x"})
    if kind == 9:
        return json.dumps({"type": "ping", "extra": {"a": [1, 2, {"b": None}]}})
    if kind == 10:
        return json.dumps([{"type": "ping"}])
    if kind == 11:
        return json.dumps({"type": "action", "action": "pass", "seq": "1"})
    if kind == 12:
        return "null"
    return json.dumps({"type": rng.choice(["spectate", "sync"])})


async def fuzz(url: str, token: str, seed: int, count: int) -> dict[str, int]:
    """Send ``count`` hostile messages, reconnecting whenever the server hangs up (it
    closes a connection after 100 refused messages, or on an oversized frame)."""
    rng = random.Random(seed)
    codes: dict[str, int] = {}
    sent = 0
    while sent < count:
        try:
            async with websockets.connect(url, max_size=2**22) as ws:
                batch = 0
                while batch < 90 and sent < count:
                    if rng.randrange(300) == 0:
                        msg: str | bytes = "y" * 5000  # over the frame limit: closed (1009)
                    else:
                        msg = hostile(rng, token)
                    await ws.send(msg)
                    sent += 1
                    batch += 1
                await ws.send(json.dumps({"type": "ping"}))
                async for raw in ws:
                    m = json.loads(raw)
                    if m["type"] == "pong":
                        break
                    if m["type"] == "error":
                        codes[m["code"]] = codes.get(m["code"], 0) + 1
        except (websockets.ConnectionClosed, OSError):
            pass
    return codes


def test_hostile_messages_get_errors_and_other_tables_play_on(
    server: ServerProcess, db_kind: str
) -> None:
    if db_kind != "sqlite":
        pytest.skip("the protocol layer does not depend on the database")
    base = server.base
    victim, vclaims = human_table(base)
    table, claims = human_table(base, target=5)
    players = [Player(base, table, c["token"], seed=i) for i, c in enumerate(claims)]
    url = ws_url(base, victim)

    async def run() -> list[dict[str, int]]:
        fuzzers = [fuzz(url, vclaims[i]["token"], seed=i, count=700) for i in range(3)]
        results = await asyncio.gather(*fuzzers, *(p.play() for p in players))
        return list(results[:3])

    results = asyncio.run(run())
    codes: dict[str, int] = {}
    for r in results:
        for k, v in r.items():
            codes[k] = codes.get(k, 0) + v
    assert sum(codes.values()) > 1000
    for code in codes:
        assert code in ERROR_CODES, code
    assert {"bad_json", "bad_message", "unknown_type", "too_large", "bad_token"} <= set(codes)
    # The game at the other table finished without a single error.
    for p in players:
        assert p.last_state is not None and p.last_state["status"] == "over"
        assert not [m for m in p.messages if m["type"] == "error"]
    # The fuzzed table is untouched and the server still answers.
    assert httpx.get(f"{base}/api/tables/{victim}/state").json()["seq"] == 1
    assert httpx.get(f"{base}/api/health").json()["ok"]
    assert "Traceback" not in server.log.read_text()


def test_hostile_http_bodies_get_4xx(server: ServerProcess, db_kind: str) -> None:
    if db_kind != "sqlite":
        pytest.skip("the HTTP layer does not depend on the database")
    base = server.base
    bodies: list[Any] = [
        {"rules": {"players": 9}},
        {"rules": {"players": "four"}},
        {"rules": {"wat": 1}},
        {"preset": "nope"},
        {"seats": [{"kind": "bot", "bot": "nosuchbot"}] * 4},
        {"seats": [{"kind": "bot"}] * 4},
        {"seats": [{"kind": "human"}] * 3},
        {"options": {"turn_seconds": -1}},
        {"options": {"substitute": "x" * 500}},
        [1, 2],
        "null",
    ]
    for b in bodies:
        r = httpx.post(base + "/api/tables", json=b)
        assert 400 <= r.status_code < 500, (b, r.status_code, r.text)
    r = httpx.post(
        base + "/api/tables", content=b"\xff\xfe", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert httpx.get(base + "/api/tables/zzzzzzzzzz").status_code == 404
    assert httpx.get(base + "/api/tables/../../etc").status_code in (404, 422)
    t = httpx.post(base + "/api/tables", json={}).json()["id"]
    for seat, name in [(7, "a"), (0, ""), (0, "\x00\x01"), (0, "y" * 100)]:
        r = httpx.post(f"{base}/api/tables/{t}/seats/{seat}", json={"name": name})
        assert 400 <= r.status_code < 500, (seat, name, r.text)
    assert httpx.get(f"{base}/api/tables/{t}/record").status_code == 409
