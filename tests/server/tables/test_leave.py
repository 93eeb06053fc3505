"""Leaving a table (issue 17 item 10), against a real server: a waiting table's seat is
open again, a game under way is resigned to the table's substitute bot, a table nobody
holds a seat at any more is abandoned (deleted), a game whose last player resigns at a
table of bots ends and is kept, and tables left stop counting to the unfinished-table
limit."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
import websockets

from pitch.engine import replay_record
from tests.server.helpers import (
    Player,
    ServerProcess,
    age_tables,
    choose,
    claim,
    create_table,
    verify_with_cli,
)
from tests.support.tables import ws_url


def _leave(base: str, table: str, token: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{table}/leave", json={"token": token}, timeout=10)


def _mine(base: str, *claims: dict[str, Any]) -> list[dict[str, Any]]:
    seats = [{"table": c["table"], "token": c["token"]} for c in claims]
    r = httpx.post(f"{base}/api/my/tables", json={"seats": seats}, timeout=10)
    assert r.status_code == 200, r.text
    return list(r.json())


def test_leaving_a_waiting_table_opens_the_seat(server: ServerProcess) -> None:
    base = server.base
    t = create_table(base, {"rules": {"players": 3}})
    ann = claim(base, t["id"], 0, "Ann")
    bob = claim(base, t["id"], 1, "Bob")

    # Refusals, each with its reason.
    r = _leave(base, t["id"], "not-a-token")
    assert r.status_code == 403 and "token" in r.json()["detail"]
    assert _leave(base, "nosuchtable", ann["token"]).status_code == 404
    assert _leave(base, t["id"], "").status_code == 422
    assert _leave(base, t["id"], None).status_code == 422
    r = httpx.post(f"{base}/api/tables/{t['id']}/leave", content=ann["token"], timeout=10)
    assert r.status_code == 415  # JSON only
    r = httpx.post(
        f"{base}/api/tables/{t['id']}/leave", json={"token": ann["token"], "x": 1}, timeout=10
    )
    assert r.status_code == 422  # no other fields

    r = _leave(base, t["id"], ann["token"])
    assert r.status_code == 200, r.text
    assert r.json() == {"table": t["id"], "seat": 0, "left": "freed", "status": "waiting"}
    seats = httpx.get(f"{base}/api/tables/{t['id']}").json()["seats"]
    assert seats[0]["claimed"] is False and seats[0]["name"] is None
    assert seats[1]["claimed"] is True and seats[1]["name"] == "Bob"
    # The token is spent: it leaves nothing again and lists nothing.
    assert _leave(base, t["id"], ann["token"]).status_code == 403
    assert _mine(base, ann) == []
    assert [x["seat"] for x in _mine(base, bob)] == [1]

    # The seat is open for someone else; when the last player leaves, the table goes.
    cai = claim(base, t["id"], 0, "Cai")
    assert _leave(base, t["id"], bob["token"]).json()["status"] == "waiting"
    r = _leave(base, t["id"], cai["token"])
    assert r.json() == {"table": t["id"], "seat": 0, "left": "freed", "status": "abandoned"}
    assert httpx.get(f"{base}/api/tables/{t['id']}").status_code == 404
    assert _mine(base, cai) == []


async def _resign_while_connected(base: str, table: str, token: str) -> list[dict[str, Any]]:
    """Connect as the seat, resign over HTTP, then try to act on the old socket."""
    async with websockets.connect(ws_url(base, table)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        r = await asyncio.to_thread(_leave, base, table, token)
        assert r.json() == {"table": table, "seat": 0, "left": "resigned", "status": "playing"}
        await ws.send(json.dumps({"type": "action", "action": "pass"}))
        got: list[dict[str, Any]] = []
        while not any(m["type"] == "error" for m in got):
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        return got


def test_resigning_hands_the_seat_to_the_substitute_for_good(
    tmp_path: Path,
) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'pitch.db'}", log=tmp_path / "server.log")
    srv.start()
    try:
        base = srv.base
        t = create_table(
            base,
            {
                "rules": {"players": 3, "target": 5},
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                "options": {"substitute": "club", "bot_delay": 0},
            },
        )
        ann = claim(base, t["id"], 0, "Ann")
        bob = claim(base, t["id"], 1, "Bob")
        assert _mine(base, bob)[0]["held"] == [0, 1]
        got = asyncio.run(_resign_while_connected(base, t["id"], ann["token"]))
        # Ann's page now watches: it may not act for the seat the bot plays.
        assert got[-1]["code"] == "spectator"
        seat = httpx.get(f"{base}/api/tables/{t['id']}").json()["seats"][0]
        assert (seat["kind"], seat["bot"], seat["name"]) == ("bot", "heuristic", "Ann")
        assert _leave(base, t["id"], ann["token"]).status_code == 403
        assert _mine(base, ann) == []
        # Ann is still named, but holds no seat: Bob resigning now would end the game
        # (what My tables asks him, issue 44 item 5).
        (mine,) = _mine(base, bob)
        assert mine["names"][0] == "Ann" and mine["held"] == [1]

        # The bot keeps the seat after a restart, and the game goes on to its end.
        srv.stop()
        srv.start()
        seat = httpx.get(f"{base}/api/tables/{t['id']}").json()["seats"][0]
        assert (seat["kind"], seat["bot"]) == ("bot", "heuristic")
        last = asyncio.run(Player(base, t["id"], bob["token"], seed=3).play())
        assert last["status"] == "over"
        r = _leave(base, t["id"], bob["token"])
        assert r.status_code == 409 and "over" in r.json()["detail"]
        (mine,) = _mine(base, bob)
        assert mine["status"] == "over" and mine["names"][0] == "Ann"

        # The record names every seat as the table showed it, and verifies.
        rec = httpx.get(f"{base}/api/tables/{t['id']}/record").json()
        assert rec["players"] == ["Ann, then Bot 1 (club)", "Bob", "Bot 3 (beginner)"]
        verify_with_cli(rec, tmp_path)
    finally:
        srv.stop()


async def _resign_mid_hand(base: str, table: str, token: str) -> list[dict[str, Any]]:
    """Play the seat (low bids, random cards) until a hand is over and the next one
    under way, resign over HTTP meanwhile, and read until the table says it is over."""
    rng = random.Random(7)
    got: list[dict[str, Any]] = []
    async with websockets.connect(ws_url(base, table)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        acted = -1
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 60))
            got.append(m)
            if m["type"] != "state":
                continue
            g = m["game"]
            assert m["status"] == "playing", "the game ended before the resignation"
            if g["hands_played"] >= 1 and g["bids"]:
                # The second hand is under way. Not "in its auction": a bid of 4 ends the
                # auction at once (R3.4), so a bot's 4 can skip every auction state, and
                # this seat then played the whole hand (CI saw hands_played == 2).
                break
            if g["turn"] == 0 and g["legal"] and m["seq"] > acted:
                acted = m["seq"]
                act = {"type": "action", "action": choose(g, rng), "seq": m["seq"]}
                await ws.send(json.dumps(act))
        r = await asyncio.to_thread(_leave, base, table, token)
        assert r.json() == {"table": table, "seat": 0, "left": "resigned", "status": "over"}
        while not (got[-1]["type"] == "state" and got[-1]["status"] == "over"):
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        await ws.send(json.dumps({"type": "action", "action": "pass"}))
        while got[-1]["type"] != "error":
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    return got


def test_the_last_player_resigning_ends_the_game_and_keeps_it(tmp_path: Path) -> None:
    """Issue 44 item 5: resigning at a table of bots deleted it (its link said "table
    not found": no replay, no record). The game ends there instead, over with no winner
    (as at the hand limit), and stays: the table, its record (which verifies, names
    who resigned and replays), and the player's seat in My tables, after a restart too."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'pitch.db'}", log=tmp_path / "server.log")
    srv.start()
    try:
        base = srv.base
        t = create_table(
            base,
            {
                "rules": {"players": 3, "target": 21},  # nobody wins in one hand
                "seats": [
                    {"kind": "human"},
                    {"kind": "bot", "bot": "club"},
                    {"kind": "bot", "bot": "random"},
                ],
                "options": {"bot_delay": 0},
            },
        )
        me = claim(base, t["id"], 0, "Dag")
        got = asyncio.run(_resign_mid_hand(base, t["id"], me["token"]))
        over = got[-2]
        assert over["type"] == "state" and over["status"] == "over"
        assert over["resigned"] == 0 and over["seat"] == 0
        # Nobody is to move: no turn, no legal moves, and a move is refused.
        assert over["game"]["turn"] is None and over["game"]["legal"] == []
        assert over["game"]["winner"] is None and over["game"]["hands_played"] == 1
        assert got[-1]["code"] == "game_over"

        for _ in range(2):  # as it was left, and after a restart (read from the store)
            info = httpx.get(f"{base}/api/tables/{t['id']}").json()
            assert info["status"] == "over" and info["winner"] is None
            seat = info["seats"][0]
            assert (seat["kind"], seat["name"], seat["claimed"]) == ("human", "Dag", True)
            (mine,) = _mine(base, me)
            assert mine["status"] == "over" and mine["won"] is None
            assert _leave(base, t["id"], me["token"]).status_code == 409  # over: nothing to leave
            rec = httpx.get(f"{base}/api/tables/{t['id']}/record").json()
            assert rec["winner"] is None and rec["resigned"] == 0
            assert len(rec["hands"]) == 1  # the finished hand; the one in play is not recorded
            assert rec["players"][0] == "Dag"
            verify_with_cli(rec, tmp_path)
            assert replay_record(rec).winner is None
            r = httpx.post(f"{base}/api/records/verify", json={"records": [rec]}, timeout=30)
            assert r.status_code == 200 and r.json()["problems"] == [], r.text
            assert len(r.json()["records"][0]["hands"]) == 1
            state = asyncio.run(_first_state(base, t["id"], me["token"]))
            assert state["status"] == "over" and state["resigned"] == 0
            srv.stop()
            srv.start()
    finally:
        srv.stop()


async def _first_state(base: str, table: str, token: str) -> dict[str, Any]:
    async with websockets.connect(ws_url(base, table)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] == "state":
                return dict(m)


def test_tables_left_stop_counting_to_the_limit(tmp_path: Path) -> None:
    """Ten abandoned tables locked a player out (issue 17 item 10): leaving them frees
    the limit, also where a friend still plays on."""
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'pitch.db'}",
        log=tmp_path / "server.log",
        env={"PITCH_MAX_TABLES_PER_CLIENT": "2"},
    )
    srv.start()
    try:
        base = srv.base
        waiting = create_table(base, {"rules": {"players": 3}})
        mine_w = claim(base, waiting["id"], 0, "Eli")
        friend = claim(base, waiting["id"], 1, "Fay")
        playing = create_table(
            base, {"rules": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        )
        mine_p = claim(base, playing["id"], 0, "Eli")
        r = httpx.post(base + "/api/tables", json={}, timeout=10)
        assert r.status_code == 429
        assert "2 unfinished tables" in r.json()["detail"] and "My tables" in r.json()["detail"]

        # Leaving the waiting table (Fay still sits there) frees one.
        assert _leave(base, waiting["id"], mine_w["token"]).json()["status"] == "waiting"
        assert httpx.get(f"{base}/api/tables/{waiting['id']}").status_code == 200
        third = create_table(base)
        assert httpx.post(base + "/api/tables", json={}, timeout=10).status_code == 429

        # Resigning the game with a bot ends it (over): the limit has room again.
        assert _leave(base, playing["id"], mine_p["token"]).json()["status"] == "over"
        create_table(base)
        assert httpx.post(base + "/api/tables", json={}, timeout=10).status_code == 429
        assert third["status"] == "waiting" and _mine(base, friend)[0]["status"] == "waiting"
    finally:
        srv.stop()


def test_quick_play_tables_walked_away_from_stop_counting(tmp_path: Path) -> None:
    """Issue 44 item 8: quick-play tables their player walked away from (no leave, the
    page closed) locked the address out for a day. One nobody has played for ten
    minutes waits for nobody and stops counting; a table with friends' seats waits
    and counts on; and all of an address's unfinished tables stay bounded."""
    db = tmp_path / "pitch.db"
    srv = ServerProcess(
        f"sqlite:///{db}",
        log=tmp_path / "server.log",
        env={"PITCH_MAX_TABLES_PER_CLIENT": "2", "PITCH_TABLES_PER_MINUTE": "1000"},
    )
    srv.start()
    try:
        base = srv.base

        def quick(players: int) -> httpx.Response:
            body = {"rules": {"players": players}, "level": "club"}
            r = httpx.post(f"{base}/api/quickplay", json=body, timeout=20)
            if r.status_code != 200:
                return r
            t = r.json()["table"]
            return httpx.post(f"{base}/api/tables/{t}/quickseat", json={"name": "Ann"}, timeout=20)

        assert quick(2).status_code == 200
        assert quick(3).status_code == 200
        assert quick(4).status_code == 429  # both still played (just now): they count
        age_tables(db, 11)
        assert quick(4).status_code == 200  # the two walked away from wait for nobody
        friends = create_table(base, {"rules": {"players": 2}})  # waits for a friend
        claim(base, friends["id"], 0, "Ann")
        assert quick(5).status_code == 429
        age_tables(db, 11)
        assert quick(5).status_code == 200  # the friends' table counts on, alone
        assert httpx.post(base + "/api/tables", json={}, timeout=10).status_code == 429
        # Still bounded: four times the limit, counting the tables walked away from.
        for players in (6, 7, 2):
            age_tables(db, 11)
            assert quick(players).status_code == 200
        age_tables(db, 11)
        r = quick(3)
        assert r.status_code == 429 and r.json()["code"] == "too_many_open", r.text
    finally:
        srv.stop()


def test_a_checked_record_keeps_who_resigned_only_as_a_seat() -> None:
    """The record check (``POST /api/records/verify``, what the replay viewer shows)
    passes ``resigned`` on only as a seat of an unfinished game: from the network, a
    bool, a text, a seat out of range or a resignation beside a winner is dropped."""
    import random as rnd

    from pitch.bots import make_bot, play_game
    from pitch.engine import Rules, game_record
    from pitch.server.records.check import checked_record

    bots = [make_bot("random", rng=rnd.Random(i)) for i in range(3)]
    stopped = game_record(play_game(Rules(players=3), bots, rnd.Random(1), max_hands=2).state)
    assert stopped["winner"] is None
    assert checked_record({**stopped, "resigned": 2})["resigned"] == 2
    for bad in (True, "0", 3, -1, 1.0, None):
        assert "resigned" not in checked_record({**stopped, "resigned": bad})
    bots = [make_bot("heuristic", rng=rnd.Random(i)) for i in range(3)]
    won = game_record(play_game(Rules(players=3, target=1), bots, rnd.Random(2)).state)
    assert won["winner"] is not None
    assert "resigned" not in checked_record({**won, "resigned": 0})
