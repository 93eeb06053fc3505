"""Quick play (issue 17), on a real server: one request seats a player at an active
quick-play table with the rules asked for, or starts one with bots; a stranger who
arrives mid-hand watches until the hand ends, then the bot gives the seat up; the
record names who played the seat when."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.helpers import Player, ServerProcess, age_tables, choose, verify_with_cli
from tests.server.inprocess import app_client, in_process_settings
from tests.support.databases import db_url
from tests.support.tables import ws_url
from tests.support.timing import margin

RULES = {"players": 2, "target": 11}  # more than one hand: someone can arrive


@pytest.fixture(scope="module")
def quick_server(db_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("quick")
    srv = ServerProcess(
        db_url(db_kind, tmp), log=tmp / "server.log", env={"PITCH_QUICK_BOT_DELAY": "0"}
    )
    srv.start()
    try:  # stopped however the wait ends (a server left running outlives the suite)
        deadline = time.monotonic() + margin(120)  # its bot worker up: bots then answer at once
        while httpx.get(f"{srv.base}/api/health").json()["bot_workers"]["ready"] < 1:
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.1)
        yield srv.base
    finally:
        srv.stop()


def _quick(base: str, name: str, **body: Any) -> httpx.Response:
    """What the lobby does: ask for a table, then take its seat."""
    r = httpx.post(f"{base}/api/quickplay", json={"rules": RULES, **body}, timeout=20)
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    return httpx.post(f"{base}/api/tables/{table}/quickseat", json={"name": name}, timeout=20)


async def _until(
    ws: Any,
    pred: Any,
    seat: int | None = None,
    act: bool = False,
    first: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Read messages until ``pred(message)``; with ``act``, play ``seat``'s turns, from
    ``first`` on (a message read before: its turn may be ours, and nothing else comes
    until it is played but the turn clock's stand-in, a minute later)."""
    import random

    rng = random.Random(seat)
    acted = -1
    m = first
    while True:
        if m is None:
            m = json.loads(await asyncio.wait_for(ws.recv(), 120))
        if pred(m):
            return dict(m)
        g = m.get("game") if m["type"] == "state" else None
        if act and g and g["turn"] == seat and g["legal"] and m["seq"] > acted:
            acted = m["seq"]
            await ws.send(json.dumps({"type": "action", "action": choose(g, rng), "seq": acted}))
        m = None


def test_quick_play_fills_a_bot_seat_between_hands(quick_server: str, tmp_path: Path) -> None:
    base = quick_server
    ann = _quick(base, "Ann")
    assert ann.status_code == 200, ann.text
    a = ann.json()
    assert a["seat"] == 0 and a["waiting"] is False
    t = a["table"]
    info = httpx.get(f"{base}/api/tables/{t}").json()
    assert info["status"] == "playing" and info["options"]["quick"] is True
    assert info["options"]["turn_seconds"] and info["options"]["chat"] == "phrases"
    assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["open"] is True

    async def scenario() -> dict[str, Any]:
        async with websockets.connect(ws_url(base, t)) as ws_a:
            await ws_a.send(json.dumps({"type": "auth", "token": a["token"]}))
            # Ann plays until a bid is made: the hand is under way.
            bid = await _until(
                ws_a, lambda m: m["type"] == "state" and m["game"]["bids"], seat=0, act=True
            )
            bob = _quick(base, "Bob").json()
            assert bob["table"] == t and bob["seat"] == 1 and bob["waiting"] is True
            # Changing his mind before the hand ends opens the seat again.
            left = httpx.post(f"{base}/api/tables/{t}/leave", json={"token": bob["token"]})
            assert left.status_code == 200 and left.json()["left"] == "freed", left.text
            assert httpx.get(f"{base}/api/tables/{t}").json()["seats"][1]["open"] is True
            bob = _quick(base, "Bob").json()
            assert bob["table"] == t and bob["waiting"] is True
            info = httpx.get(f"{base}/api/tables/{t}").json()
            s1 = info["seats"][1]
            assert s1["kind"] == "bot" and s1["arriving"] == "Bob" and s1["name"] is None
            assert s1["open"] is False
            async with websockets.connect(ws_url(base, t)) as ws_b:
                await ws_b.send(json.dumps({"type": "auth", "token": bob["token"]}))
                hello = await _until(ws_b, lambda m: m["type"] == "welcome")
                assert hello["role"] == "waiting" and hello["seat"] == 1
                first = await _until(ws_b, lambda m: m["type"] == "state")
                assert first["game"]["hand"] is None  # a spectator's view meanwhile
                # He may not act for the bot meanwhile.
                await ws_b.send(json.dumps({"type": "action", "action": "pass"}))
                # Ann plays the hand out; then the seat is Bob's.
                ann_task = asyncio.create_task(
                    _until(
                        ws_a, lambda m: m["type"] == "state" and m["status"] == "over", 0, True, bid
                    )
                )
                err = await _until(ws_b, lambda m: m["type"] in ("error", "welcome"))
                assert err["type"] == "error"
                mine = await _until(ws_b, lambda m: m["type"] == "welcome")
                assert mine["role"] == "player" and mine["seat"] == 1
                state = await _until(ws_b, lambda m: m["type"] == "state")
                assert state["game"]["hand"]  # his own cards now
                assert state["seats"][1]["kind"] == "human"
                assert state["seats"][1]["name"] == "Bob"
                before = state["game"]["hands_played"]
                assert before >= 1
                # The bot bid in the hands before: the score sheet names them by it.
                assert state["seats"][1]["since"] == before
                assert state["seats"][0]["since"] is None
                await _until(
                    ws_b, lambda m: m["type"] == "state" and m["status"] == "over", 1, True, state
                )
                seats = httpx.get(f"{base}/api/tables/{t}").json()["seats"]
                assert [s["since"] for s in seats] == [None, before]
                return await ann_task

    over = asyncio.run(scenario())
    assert over["status"] == "over"
    rec = httpx.get(f"{base}/api/tables/{t}/record").json()
    assert rec["players"] == ["Ann", "Bot 2 (club), then Bob"]
    verify_with_cli(rec, tmp_path)
    # The seat is taken now: the next stranger gets a table of their own, and may ask
    # not to be put at tables they sit at already.
    cy = _quick(base, "Cy").json()
    assert cy["table"] != t and cy["seat"] == 0
    dee = _quick(base, "Dee", avoid=[cy["table"]]).json()
    assert dee["table"] not in (t, cy["table"])
    # Other rules or another level: another table.
    eve = _quick(base, "Eve", rules={"players": 3}).json()
    assert eve["table"] not in (t, cy["table"], dee["table"])


@pytest.mark.parametrize(
    "body",
    [
        {"level": "god"},
        {"level": "x" * 100},
        {"rules": {"players": 9}},
        {"avoid": ["a"] * 51},
        {"avoid": ["../etc"]},
        {"rules": {"target": float("inf")}},
        {"extra": 1},
    ],
)
def test_quick_play_refuses_bad_requests(quick_server: str, body: dict[str, Any]) -> None:
    r = httpx.post(
        f"{quick_server}/api/quickplay",
        content=json.dumps(body),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 422, r.text


def test_quick_seat_is_only_at_quick_tables(quick_server: str) -> None:
    base = quick_server
    plain = httpx.post(f"{base}/api/tables", json={"rules": RULES}).json()["id"]
    r = httpx.post(f"{base}/api/tables/{plain}/quickseat", json={"name": "Al"})
    assert r.status_code == 409 and "quick play" in r.text
    r = httpx.post(f"{base}/api/tables/nosuchtable/quickseat", json={"name": "Al"})
    assert r.status_code == 404
    table = httpx.post(f"{base}/api/quickplay", json={"rules": {"players": 5}}).json()["table"]
    r = httpx.post(f"{base}/api/tables/{table}/quickseat", json={"name": " \u200b "})
    assert r.status_code == 422  # a name needs a printable character
    first = httpx.post(f"{base}/api/tables/{table}/quickseat", json={"name": "Al"}).json()
    assert first["seat"] == 0 and first["waiting"] is False


def test_quick_play_hostile_input(quick_server: str) -> None:
    base = quick_server
    post = {"headers": {"Content-Type": "application/json"}, "timeout": 10}
    # JSON's NaN, a body past the limit, a thousand-item avoid list: refused, not served.
    r = httpx.post(f"{base}/api/quickplay", content='{"rules": {"target": NaN}}', **post)
    assert r.status_code == 422
    big = json.dumps({"rules": {}, "level": "club", "pad": "x" * 100_000})
    assert httpx.post(f"{base}/api/quickplay", content=big, **post).status_code == 413
    many = json.dumps({"avoid": ["a" * 32] * 1000})
    assert httpx.post(f"{base}/api/quickplay", content=many, **post).status_code == 422
    # Markup in a name is only text: stored as sent, never interpreted by the server.
    table = httpx.post(f"{base}/api/quickplay", json={"rules": {"players": 6}}).json()["table"]
    evil = "<img src=x onerror=alert(1)>"
    r = httpx.post(f"{base}/api/tables/{table}/quickseat", json={"name": evil})
    assert r.status_code == 200
    assert httpx.get(f"{base}/api/tables/{table}").json()["seats"][0]["name"] == evil
    r = httpx.post(f"{base}/api/tables/{table}/quickseat", json={"name": "x" * 33})
    assert r.status_code == 422


def test_quick_play_flood_is_rate_limited(db_kind: str, tmp_path: Path) -> None:
    srv = ServerProcess(
        db_url(db_kind, tmp_path), log=tmp_path / "server.log", env={"PITCH_TABLES_PER_MINUTE": "3"}
    )
    srv.start()
    try:
        codes = [
            httpx.post(f"{srv.base}/api/quickplay", json={"rules": RULES}, timeout=10).status_code
            for _ in range(8)
        ]
    finally:
        srv.stop()
    assert codes[:3] == [200, 200, 200] and set(codes[3:]) == {429}, codes


def test_a_request_cannot_make_a_table_quick_play_sends_strangers_to(tmp_path: Path) -> None:
    # A quick table with the requester's own options (no timer, no stand-in, slow bots,
    # free chat) would be found by strangers' quick play and hold them there.
    with app_client(in_process_settings(tmp_path)) as c:
        body = {
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "club"}] * 3,
            "options": {"quick": True, "bot_delay": 10, "chat": "free"},
        }
        r = c.post("/api/tables", json=body)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
        assert "quickplay" in r.text
        found = c.post("/api/quickplay", json={"level": "club"}).json()["table"]
        assert c.get(f"/api/tables/{found}").json()["options"]["turn_seconds"] == 60


def test_a_stranger_whose_name_is_taken_at_the_table_gets_a_number(quick_server: str) -> None:
    # Quick play chose the table, not the player: a name another seat there goes by
    # (told apart without case) is numbered, never refused. Seven players: no other
    # test here asks for that table, so quick play makes a fresh one.
    base = quick_server
    table = httpx.post(f"{base}/api/quickplay", json={"rules": {"players": 7}}).json()["table"]
    seat = lambda name: httpx.post(  # noqa: E731
        f"{base}/api/tables/{table}/quickseat", json={"name": name}, timeout=20
    )
    assert seat("Al").json()["seat"] == 0
    long = "x" * 32
    got = [seat(n).json() for n in ("AL", "al", long, long)]
    seats = httpx.get(f"{base}/api/tables/{table}").json()["seats"]
    names = [seats[g["seat"]]["arriving"] or seats[g["seat"]]["name"] for g in got]
    assert names == ["AL 2", "al 3", long, "x" * 30 + " 2"]


def test_a_quick_play_rematch_does_not_wait_for_the_stranger(quick_server: str) -> None:
    """Issue 44 item 2: the rematch of a quick-play game starts at once, a bot in the
    seat of the stranger who has not asked for it (open to quick play); the stranger
    who asks later takes the seat back from its bot."""
    base = quick_server
    rules = {"players": 2, "target": 1}  # one hand ends the game
    ann = _quick(base, "Ann", rules=rules).json()
    t = ann["table"]
    # Nobody has the table open yet, so nothing is bid: Bob's seat is his at once.
    bob = _quick(base, "Bob", rules=rules).json()
    assert bob["table"] == t and bob["seat"] == 1 and bob["waiting"] is False

    async def both() -> None:
        await asyncio.gather(
            Player(base, t, ann["token"], seed=1).play(),
            Player(base, t, bob["token"], seed=2).play(),
        )

    asyncio.run(both())
    assert httpx.get(f"{base}/api/tables/{t}").json()["status"] == "over"
    again = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": ann["token"]})
    assert again.status_code == 200, again.text
    new = again.json()
    assert new["seat"] == 0
    info = httpx.get(f"{base}/api/tables/{new['table']}").json()
    assert info["status"] == "playing", info  # not "waiting for a friend"
    assert info["options"]["quick"] is True
    s1 = info["seats"][1]
    assert s1["kind"] == "bot" and s1["open"] is True
    # Bob asks too: his own seat, back from its bot.
    late = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": bob["token"]})
    assert late.status_code == 200, late.text
    assert late.json()["table"] == new["table"] and late.json()["seat"] == 1
    s1 = httpx.get(f"{base}/api/tables/{new['table']}").json()["seats"][1]
    assert s1["open"] is False and "Bob" in (s1["name"], s1["arriving"])


def test_play_now_does_not_seat_a_newcomer_in_a_game_nobody_is_at(tmp_path: Path) -> None:
    """Issue 44 item 12: a quick-play game its player walked away from stands still (a
    table nobody has open does not move); a newcomer sent there sat beside an away
    player. One that stored nothing for longer than a turn's time is not offered: the
    newcomer gets a fresh table. One still played is."""
    db = tmp_path / "pitch.db"
    srv = ServerProcess(f"sqlite:///{db}", log=tmp_path / "server.log")
    srv.start()
    try:
        base = srv.base
        ann = _quick(srv.base, "Ann").json()
        age_tables(db, 3)  # Ann walked away three minutes ago: nothing moved since
        bob = _quick(base, "Bob").json()
        assert bob["table"] != ann["table"] and bob["seat"] == 0, bob
        # A table played just now (Bob's, which he just sat down at) is offered.
        cy = _quick(base, "Cy").json()
        assert cy["table"] == bob["table"] and cy["seat"] == 1, cy
    finally:
        srv.stop()


def test_play_now_prefers_a_fresh_game_then_one_between_hands(quick_server: str) -> None:
    """Issue 44 item 12: Play now offers a game nobody has bid in yet first, then one
    between hands (the seat is the newcomer's at once, with no hand to watch), and only
    then one in mid-hand, even where that one has more people; the answer says which."""
    base = quick_server
    rules = {"players": 4, "target": 21}  # no other test quick-plays these rules

    def quick(name: str, *avoid: str) -> dict[str, Any]:
        body = {"rules": rules, "avoid": list(avoid)}
        r = httpx.post(f"{base}/api/quickplay", json=body, timeout=20)
        assert r.status_code == 200, r.text
        seat = f"{base}/api/tables/{r.json()['table']}/quickseat"
        got = httpx.post(seat, json={"name": name}, timeout=20)
        assert got.status_code == 200, got.text
        return dict(got.json())

    async def play(who: dict[str, Any], until: Any) -> None:
        """``who`` plays (at random) until ``until(game)``, then closes the table: a
        table nobody has open does not move."""
        async with websockets.connect(ws_url(base, who["table"])) as ws:
            await ws.send(json.dumps({"type": "auth", "token": who["token"]}))
            await _until(ws, lambda m: m["type"] == "state" and until(m["game"]), who["seat"], True)

    # M: Ann's game in mid-hand (she has bid), two strangers waiting for its end.
    ann = quick("Ann")
    assert ann["seat"] == 0 and ann["joined"] == "new" and ann["waiting"] is False
    m = ann["table"]
    asyncio.run(play(ann, lambda g: g["bids"]))
    for name in ("Bob", "Cy"):
        got = quick(name)
        assert got["table"] == m and got["joined"] == "mid-hand" and got["waiting"] is True
    # F: Dee's table, nobody bid yet (she never opened it); B: Gus's, between hands
    # (the second hand or a later one dealt, his the first bid: nothing bid yet).
    dee = quick("Dee", m)
    f = dee["table"]
    gus = quick("Gus", m, f)
    b = gus["table"]
    assert len({m, f, b}) == 3 and dee["seat"] == gus["seat"] == 0
    asyncio.run(play(gus, lambda g: g["hands_played"] >= 1 and not g["bids"] and g["turn"] == 0))
    # M has the most people (one open seat to the others' three): it comes last.
    eve = quick("Eve")
    assert (eve["table"], eve["joined"], eve["waiting"]) == (f, "fresh", False), eve
    fay = quick("Fay", f)
    assert (fay["table"], fay["joined"], fay["waiting"]) == (b, "between", False), fay
    hal = quick("Hal", f, b)
    assert (hal["table"], hal["joined"], hal["waiting"]) == (m, "mid-hand", True), hal
    seats = httpx.get(f"{base}/api/tables/{b}").json()["seats"]
    assert seats[fay["seat"]]["kind"] == "human" and seats[fay["seat"]]["name"] == "Fay"
