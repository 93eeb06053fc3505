"""Strangers are never locked out by tables others keep live (issue 43 parts 3 and 6):
the live-table cap is one that spectators cannot fill and concurrent opens cannot
pass, IPv6 clients are counted by their /56 and /48 too, and a trusted proxy's
forwarded "address" that is none is not a new client each time. Real servers, real
sockets; several clients are presented through a trusted proxy's X-Forwarded-For
from loopback."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from tests.server.helpers import create_table
from tests.support.tables import ws_url
from tests.support.timing import came_back, margin

PROXY = ("--forwarded-allow-ips", "127.0.0.1")


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _watch(base: str, table: str, address: str) -> tuple[Any, dict[str, Any]]:
    ws = await websockets.connect(
        ws_url(base, table),
        origin=base,  # type: ignore[arg-type]
        additional_headers=_as(address),
    )
    await ws.send(json.dumps({"type": "spectate"}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 30))


def _live(base: str) -> int:
    return int(httpx.get(base + "/api/health", timeout=10).json()["tables"])


# ------------------------------------------------------------------ the cap


def test_tables_only_spectators_watch_do_not_lock_strangers_out(make_server: Any) -> None:
    """Found: tables made within every per-address limit, each watched by one
    spectator's socket, held every live place: a stranger's new table was 503, a seat
    at an older table 503, watching it 1013."""
    srv = make_server(env={"PITCH_MAX_TABLES": "20"}, args=PROXY, ready=False)
    base = srv.base
    older = create_table(base)["id"]  # made before the attack
    older_watched = create_table(base)["id"]

    async def scenario() -> None:
        held: list[Any] = []
        for i in range(20):  # 5 addresses, 4 tables each, one spectator a table
            who = f"10.1.{i % 5}.1"
            r = httpx.post(base + "/api/tables", json={}, headers=_as(who), timeout=10)
            assert r.status_code == 201, r.text
            ws, hello = await _watch(base, r.json()["id"], who)
            assert hello["type"] == "welcome", hello
            held.append(ws)
        assert _live(base) == 20

        stranger = "192.0.2.9"
        r = httpx.post(base + "/api/tables", json={}, headers=_as(stranger), timeout=10)
        assert r.status_code == 201, r.text
        r = httpx.post(
            f"{base}/api/tables/{older}/seats/0",
            json={"name": "Ann"},
            headers=_as(stranger),
            timeout=10,
        )
        assert r.status_code == 200, r.text
        ws, hello = await _watch(base, older_watched, stranger)
        assert hello["type"] == "welcome", hello
        assert _live(base) <= 20

        # The claim's room: a table only a spectator watched (its spectator is told,
        # and the socket closed with "try again later"); the watch's: the claimed
        # table, which nobody has open (those go first).
        told = []
        for a in held:
            try:
                while True:
                    m = json.loads(await asyncio.wait_for(a.recv(), 0.5))
                    if m["type"] == "error":
                        told.append(m["code"])
            except websockets.ConnectionClosed:
                assert a.close_code == 1013
            except TimeoutError:
                pass
        assert told == ["server_busy"], told
        for a in (*held, ws):
            await a.close()

    asyncio.run(asyncio.wait_for(scenario(), 120))


def test_concurrent_opens_never_take_more_than_the_cap(make_server: Any) -> None:
    """Found: a process held 64 live tables against its cap of 60 under concurrent
    opens (the room was checked before the store was asked, the table added after)."""
    srv = make_server(env={"PITCH_MAX_TABLES": "20"}, ready=False)
    base = srv.base
    ids = [create_table(base)["id"] for _ in range(40)]

    async def claim_all(tables: list[str]) -> list[int]:
        async with httpx.AsyncClient(timeout=60) as c:
            rs = await asyncio.gather(
                *(c.post(f"{base}/api/tables/{t}/seats/0", json={"name": "Ann"}) for t in tables)
            )
        return [r.status_code for r in rs]

    codes = asyncio.run(claim_all(ids))
    assert set(codes) <= {200, 503}, codes
    assert _live(base) <= 20
    # Claimed tables nobody has open make room: each refused claim goes through now.
    again = [t for t, code in zip(ids, codes, strict=True) if code == 503]
    for t in again:
        r = httpx.post(f"{base}/api/tables/{t}/seats/0", json={"name": "Ann"}, timeout=10)
        assert r.status_code == 200, r.text
    assert _live(base) <= 20


def test_one_address_watches_only_so_many_tables(make_server: Any) -> None:
    srv = make_server(env={"PITCH_WATCHED_TABLES_PER_CLIENT": "2"}, ready=False)
    base = srv.base
    t1, t2, t3 = (create_table(base)["id"] for _ in range(3))

    async def scenario() -> None:
        a, first = await _watch(base, t1, "")
        b, second = await _watch(base, t2, "")
        c, third = await _watch(base, t3, "")
        assert first["type"] == second["type"] == "welcome"
        assert third["type"] == "error" and third["code"] == "too_many_tables", third
        again, more = await _watch(base, t1, "")  # one more socket on a watched table
        assert more["type"] == "welcome", more
        for ws in (a, b, c, again):
            await ws.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))


# ------------------------------------------------------------------ addresses


def test_a_proxys_ipv6_clients_are_counted_by_their_56_and_48(make_server: Any) -> None:
    """Found: 60 /64s of one /48 made 120 of a server's 120 tables."""
    srv = make_server(env={"PITCH_TABLES_PER_MINUTE": "1"}, args=PROXY, ready=False)

    def make(address: str) -> int:
        r = httpx.post(srv.base + "/api/tables", json={}, headers=_as(address), timeout=10)
        return r.status_code

    def burst(addresses: list[str], budget: int) -> None:
        """All of a network's budget is spent at once, and no more than what comes back
        while the requests run (``budget`` a minute: on a loaded machine they are slow)."""
        start = time.monotonic()
        got = [make(a) for a in addresses]
        back = came_back(start, budget)
        assert got[:budget] == [201] * budget, got
        assert got[budget:].count(201) <= back, (got, back)

    burst([f"2001:db8:1:{i:x}::1" for i in range(6)], 4)  # one /56: 4 /64s' worth
    burst([f"2001:db8:2:{i:x}00::1" for i in range(20)], 16)  # one /48: 16 /64s' worth
    assert make("2001:db8:3::1") == 201  # another /48
    assert make("2001:db8:3::2") == 429  # its /64 again


def test_a_forwarded_address_that_is_none_counts_as_the_proxy(make_server: Any) -> None:
    """Found: each garbage X-Forwarded-For from a trusted proxy was a new client."""
    srv = make_server(env={"PITCH_TABLES_PER_MINUTE": "2"}, args=PROXY, ready=False)

    def make(address: str) -> int:
        r = httpx.post(srv.base + "/api/tables", json={}, headers=_as(address), timeout=10)
        return r.status_code

    assert [make(f"garbage-{i}") for i in range(4)] == [201, 201, 429, 429]
    assert make("127.0.0.1") == 429  # the proxy's own budget, which they spent
    assert make("10.0.0.9") == 201  # a real client behind it is its own
    said = srv.log.read_text().count("forwarded a client address that is not one")
    assert said == 1  # logged, not once per request


# ------------------------------------------------------------------ per network


async def _play(base: str, table: str, token: str, address: str) -> tuple[Any, dict[str, Any]]:
    ws = await websockets.connect(
        ws_url(base, table),
        origin=base,  # type: ignore[arg-type]
        additional_headers=_as(address),
    )
    await ws.send(json.dumps({"type": "auth", "token": token}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 30))


def test_one_network_keeps_a_bounded_number_of_tables_going(make_server: Any) -> None:
    """Found: a table a player's socket holds never leaves memory for another, and
    each address may keep 32 going: 157 addresses (less than a /24) could hold the
    whole cap. One /24 keeps at most 8 addresses' worth."""
    srv = make_server(env={"PITCH_TABLES_OPEN_PER_CLIENT": "1"}, args=PROXY, ready=False)
    base = srv.base
    seats = []
    for i in range(10):
        made = f"10.8.{i}.1"  # tables made elsewhere, within the creation limits
        r = httpx.post(base + "/api/tables", json={}, headers=_as(made), timeout=10)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        player = f"10.5.0.{i + 1}" if i < 9 else "10.5.1.1"
        r = httpx.post(
            f"{base}/api/tables/{table}/seats/0",
            json={"name": "Ann"},
            headers=_as(player),
            timeout=10,
        )
        assert r.status_code == 200, r.text
        seats.append((table, r.json()["token"], player))

    async def scenario() -> None:
        held = []
        for table, token, player in seats[:8]:  # 8 addresses of 10.5.0.0/24
            ws, hello = await _play(base, table, token, player)
            assert hello["type"] == "welcome", hello
            held.append(ws)
        table, token, player = seats[8]  # a ninth of that /24
        ws, refused = await _play(base, table, token, player)
        assert refused["type"] == "error" and refused["code"] == "too_many_tables", refused
        assert "your network" in refused["message"]
        await ws.close()
        table, token, player = seats[9]  # another /24
        other, hello = await _play(base, table, token, player)
        assert hello["type"] == "welcome", hello
        await held.pop().close()  # one of the /24's tables closed: room for the ninth
        table, token, player = seats[8]
        deadline = time.monotonic() + margin(30)  # the server hears of the close
        while True:
            ws, hello = await _play(base, table, token, player)
            if hello["type"] == "welcome" or time.monotonic() > deadline:
                break
            await ws.close()
            await asyncio.sleep(0.05)
        assert hello["type"] == "welcome", hello
        for a in (*held, ws, other):
            await a.close()

    asyncio.run(asyncio.wait_for(scenario(), 120))
