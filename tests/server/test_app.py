"""The app in-process (Starlette's TestClient): limits, bots, grace period, timer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.inprocess import (
    TestClient,
    WebSocketTestSession,
    app_client,
    in_process_settings,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = in_process_settings(
        tmp_path,
        max_open_tables_per_client=3,
        table_creations_per_minute=100,
        ws_messages_per_second=0.001,
        ws_burst=5,
    )
    with app_client(settings) as c:
        yield c


def _until(ws: WebSocketTestSession, pred: Any, limit: int = 2000) -> dict[str, Any]:
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("no such message")


def test_pages_and_openapi(client: TestClient) -> None:
    assert "secrets" in client.get("/fairness").text
    client_page = '<script type="module" src="/js/app.js">'  # the web client (docs/web.md)
    assert client_page in client.get("/").text
    assert client_page in client.get("/t/abcdefghjk").text
    assert client.get("/js/app.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/tables" in paths and "/api/tables/{table_id}/record" in paths
    assert "/api/tables/{table_id}/hands" in paths
    assert "random" in client.get("/api/bots").json()["bots"]


def test_tables_per_client_are_limited(client: TestClient) -> None:
    for _ in range(3):
        assert client.post("/api/tables", json={}).status_code == 201
    r = client.post("/api/tables", json={})
    assert r.status_code == 429 and "unfinished tables" in r.json()["detail"]


def test_socket_rate_limit(client: TestClient) -> None:
    t = client.post("/api/tables", json={}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        codes = []
        for _ in range(8):
            ws.send_json({"type": "ping"})
            m = ws.receive_json()
            codes.append(m.get("code", m["type"]))
        assert codes[:5] == ["pong"] * 5
        assert codes[5:] == ["rate_limited"] * 3


def test_bots_play_and_an_absent_human_is_substituted(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {
        "rules": {"players": 3, "target": 3},
        # Sensible bots: random bidders can set each other back for ever (a random
        # game to 3 ran past 50,000 actions in 1 of 40 seeds), never reaching the end.
        "seats": [
            {"kind": "human"},
            {"kind": "bot", "bot": "club"},
            {"kind": "bot", "bot": "club"},
        ],
        "options": {"grace_seconds": 1, "bot_delay": 0, "substitute": "club"},
    }
    t = client.post("/api/tables", json=body).json()["id"]
    token = client.post(f"/api/tables/{t}/seats/0", json={"name": "ann"}).json()["token"]
    # Ann never connects: after the grace period a bot plays her seat to the end.
    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        ws.send_json({"type": "spectate"})
        over = _until(ws, lambda m: m.get("status") == "over", 20000)
    assert over["game"]["winner"] is not None
    first = client.get(f"/api/tables/{t}/record")
    rec = first.json()
    from pitch.engine import verify_record

    assert verify_record(rec) is None
    assert first.headers["content-disposition"] == f'attachment; filename="pitch-{t}.json"'
    # A finished game's record is built once: asked again, it is sent as it was built.
    import pitch.server.api.records as routes

    def built_again(*args: Any) -> None:
        raise AssertionError("the record was built again")

    monkeypatch.setattr(routes, "finished_record", built_again)
    assert client.get(f"/api/tables/{t}/record").content == first.content
    # The hands' results, in pages (a game has no cap on its hands).
    every = client.get(f"/api/tables/{t}/hands").json()
    assert len(every) == len(rec["hands"]) >= 1  # to 3: one hand may do
    assert client.get(f"/api/tables/{t}/hands?limit=1").json() == every[:1]
    assert client.get(f"/api/tables/{t}/hands?start={len(every) - 1}").json() == every[-1:]
    assert client.get(f"/api/tables/{t}/hands?start={len(every)}").json() == []
    for bad in ("limit=201", "limit=0", "start=-1", "start=x"):
        assert client.get(f"/api/tables/{t}/hands?{bad}").status_code == 422, bad
    # Her token still works; the view is the final one.
    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["seat"] == 0
        assert ws.receive_json()["status"] == "over"


def test_turn_timer_plays_for_a_slow_human(client: TestClient) -> None:
    body = {"rules": {"players": 2}, "options": {"turn_seconds": 3, "bot_delay": 0}}
    before = time.time()
    t = client.post("/api/tables", json=body).json()["id"]
    tokens = [
        client.post(f"/api/tables/{t}/seats/{s}", json={"name": f"p{s}"}).json()["token"]
        for s in range(2)
    ]
    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        ws.send_json({"type": "auth", "token": tokens[0]})
        first = _until(ws, lambda m: m["type"] == "state")
        # 3 s from when the turn began (after the table was made), however late the
        # state is read on a loaded machine.
        assert first["turn_deadline"] is not None and first["turn_deadline"] >= before + 2.9
        moved = _until(ws, lambda m: m["type"] == "state" and m["seq"] > first["seq"])
        assert moved["last"]["by"] == "timer"


def test_a_table_nobody_has_open_waits_and_its_turn_clock_starts_again(
    client: TestClient,
) -> None:
    body = {
        "rules": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "club"}],
        "options": {"turn_seconds": 3, "bot_delay": 0},
    }
    t = client.post("/api/tables", json=body).json()["id"]
    token = client.post(f"/api/tables/{t}/seats/0", json={"name": "ann"}).json()["token"]

    def ours(m: dict[str, Any]) -> bool:
        return m["type"] == "state" and (m.get("game") or {}).get("turn") == 0

    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        ws.send_json({"type": "auth", "token": token})
        mine = _until(ws, ours)
    time.sleep(3.5)  # past the turn timer: it does not run while nobody has the table open
    with client.websocket_connect(f"/ws/tables/{t}") as ws:
        ws.send_json({"type": "auth", "token": token})
        back = _until(ws, lambda m: m["type"] == "state")
        assert back["seq"] == mine["seq"], "a move was made at a table nobody had open"
        # 3.5 s passed with the table closed: a clock that started again ends that much
        # later than the first one did (read from the states, not from how soon they came).
        assert back["turn_deadline"] >= mine["turn_deadline"] + 3, "the clock did not start again"
        moved = _until(ws, lambda m: m["type"] == "state" and m["seq"] > mine["seq"])
        assert (moved["last"]["seat"], moved["last"]["by"]) == (0, "timer")


def test_rule_options_are_the_engine_table_and_requests_are_checked_by_it(
    client: TestClient,
) -> None:
    from pitch.engine.rules import OPTIONS

    got = client.get("/api/rules/options").json()
    assert [o["key"] for o in got] == [o.key for o in OPTIONS]
    steal = next(o for o in got if o["key"] == "dealer_may_steal")
    assert steal == {
        "key": "dealer_may_steal",
        "type": "bool",
        "default": True,
        "choices": [True, False],
        "low": 0,
        "high": 999,
        "rule": "R3.6",
        "label": "The dealer may steal the bid by bidding the same",
        "help": "The dealer may take the contract by equalling the high bid.",
        "house": True,
        "only_with": {},
    }
    # R1.2: the form offers partnerships only with 4 players, as the engine says.
    teams = next(o for o in got if o["key"] == "partnerships")
    assert teams["only_with"] == {"players": 4}
    r = client.post("/api/tables", json={"rules": {"players": 2, "min_bid": 2}})
    assert r.status_code == 201 and r.json()["rules"]["min_bid"] == 2
    for bad, says in [
        ({"low_to": "dealer"}, "R5.2: low_to must be 'captor' or 'holder', not 'dealer'."),
        ({"colour": 1}, "unknown table option 'colour'"),
        ({"target": 10**9}, "R6.1: target may be at most 999 here"),
        ({"players": True}, "R1.1: players must be a whole number, not True."),
    ]:
        for path in ("/api/tables", "/api/quickplay"):
            r = client.post(path, json={"rules": bad})
            assert r.status_code == 422 and says in r.text, (path, bad, r.text)


def test_the_servers_rules_are_every_new_tables_defaults(tmp_path: Path) -> None:
    """``pitch serve --rule``: new tables start from the server's rules, the lobby's form
    shows them as its defaults, and a request's preset and rules still change them."""
    from pitch.engine import Rules

    settings = in_process_settings(
        tmp_path,
        table_creations_per_minute=100,
        max_open_tables_per_client=100,
        rules=Rules(smudge=True, min_bid=2),
    )
    with app_client(settings) as c:
        shown = {o["key"]: o["default"] for o in c.get("/api/rules/options").json()}
        assert shown["smudge"] is True and shown["min_bid"] == 2 and shown["target"] == 7

        def made(body: dict[str, Any]) -> dict[str, Any]:
            r = c.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            return dict(r.json()["rules"])

        plain = made({"rules": {"players": 3}})
        assert plain["smudge"] is True and plain["min_bid"] == 2 and plain["players"] == 3
        # A preset changes only what its name says (club: partners to 11, must make).
        club = made({"preset": "club"})
        assert club["partnerships"] and club["target"] == 11 and club["must_make_bid_to_win"]
        assert club["smudge"] is True and club["min_bid"] == 2
        off = made({"rules": {"smudge": False, "min_bid": 1}})
        assert off.get("smudge", False) is False and off["min_bid"] == 1  # left out at its default


def test_a_socket_joins_the_live_table_though_it_left_memory_meanwhile(
    tmp_path: Path,
) -> None:
    """A socket that has not said who it is yet counts for nobody, so its table may
    leave memory meanwhile (here the server holds one live table, and another is
    joined). Its `auth` then seats it at the live table, not at the copy it had found:
    the other player's move reaches it (before, the two sat at two copies)."""
    settings = in_process_settings(tmp_path, max_live_tables=1, table_creations_per_minute=100)
    with app_client(settings) as client:

        def table() -> tuple[str, list[str]]:
            t = client.post("/api/tables", json={"rules": {"players": 2}}).json()["id"]
            claim = f"/api/tables/{t}/seats"
            return t, [
                client.post(f"{claim}/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)
            ]

        t1, (ann, bob) = table()
        with (
            client.websocket_connect(f"/ws/tables/{t1}") as wa,
            client.websocket_connect(f"/ws/tables/{t1}") as wx,
        ):
            t2, (cy, _) = table()  # t1 leaves memory: nobody sits there yet
            with client.websocket_connect(f"/ws/tables/{t2}") as wc:
                wc.send_json({"type": "auth", "token": cy})
                assert wc.receive_json()["type"] == "welcome"
                # While t2 holds the server's one place, t1 cannot come back: the
                # socket is told so and closed (its client comes back later).
                wx.send_json({"type": "auth", "token": "'><script>" * 12})
                assert wx.receive_json()["code"] == "server_busy"
                with pytest.raises(WebSocketDisconnect):
                    wx.receive_json()
            wa.send_json({"type": "auth", "token": ann})
            assert wa.receive_json()["seat"] == 0
            first = _until(wa, lambda m: m["type"] == "state")
            with client.websocket_connect(f"/ws/tables/{t1}") as wb:
                wb.send_json({"type": "auth", "token": bob})
                assert wb.receive_json()["seat"] == 1
                st = _until(wb, lambda m: m["type"] == "state")
                g = st["game"]
                # The one on turn moves; the other must hear of it.
                mover, other, view = (wa, wb, first) if g["turn"] == 0 else (wb, wa, st)
                legal = view["game"]["legal"]
                mover.send_json({"type": "action", "action": legal[0], "seq": view["seq"]})
                _until(mover, lambda m: m["type"] == "state" and m["seq"] > view["seq"])
                # Everything the other was sent by now comes before the answer to a ping.
                other.send_json({"type": "ping"})
                seen: list[dict[str, Any]] = []
                _until(other, lambda m: seen.append(m) or m["type"] == "pong")
                moves = [m["last"] for m in seen if m["type"] == "state" and m["seq"] > view["seq"]]
                assert moves and moves[0]["seat"] == g["turn"]


def test_record_checks_are_limited_by_the_hands_they_hold(tmp_path: Path) -> None:
    # A check's cost grows with the hands it replays (a 2 MiB body holds ~3,000), so
    # a client's allowance counts hands, besides calls.
    settings = in_process_settings(tmp_path, record_hands_per_minute=100)
    with app_client(settings) as client:

        def check(hands: int) -> Any:
            record = {"format": "pitch-record", "hands": [{}] * hands}
            return client.post("/api/records/verify", json={"records": [record]})

        first = check(60)
        assert first.status_code == 200 and len(first.json()["problems"]) == 1
        refused = check(60)  # 120 hands in the minute
        assert refused.status_code == 429
        assert refused.json()["detail"] == "too many hands checked; wait a minute"
        assert check(30).status_code == 200  # what is left of the minute's hands


def test_a_game_stops_at_the_servers_hand_limit(tmp_path: Path) -> None:
    # The rules set no end (random bidders go ever further below 0 at any target), so
    # the server stops a game after PITCH_MAX_HANDS hands, with no winner.
    from pitch.engine import verify_record

    with app_client(in_process_settings(tmp_path, max_hands=2)) as client:
        body = {
            "rules": {"players": 2, "target": 999},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "options": {"grace_seconds": 1, "bot_delay": 0, "substitute": "random"},
        }
        t = client.post("/api/tables", json=body).json()["id"]
        token = client.post(f"/api/tables/{t}/seats/0", json={"name": "ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{t}") as ws:
            ws.send_json({"type": "spectate"})  # someone has it open: the stand-in plays
            over = _until(ws, lambda m: m.get("status") == "over", 5000)
        assert over["game"]["winner"] is None and over["game"]["hands_played"] == 2
        assert over["game"]["turn"] is None  # no third deal
        rec = client.get(f"/api/tables/{t}/record").json()
        assert len(rec["hands"]) == 2 and rec["winner"] is None
        assert verify_record(rec) is None  # an unfinished game, as the record says
        with client.websocket_connect(f"/ws/tables/{t}") as ws:
            ws.send_json({"type": "auth", "token": token})
            _until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "action", "action": "pass"})
            assert _until(ws, lambda m: m["type"] == "error")["code"] == "game_over"


def test_a_record_check_sends_the_sides_and_each_cards_seat(client: TestClient) -> None:
    # The replay viewer works out no rule (issue 45): the checked records carry the
    # engine's sides (R1.4) and the seat that played each trick card (R4.2).
    import json

    from pitch.engine import replay_record

    data = Path(__file__).parent.parent / "web" / "data"
    for name, sides in (
        ("partners.jsonl", [[0, 2], [1, 3]]),
        ("solo4.jsonl", [[0], [1], [2], [3]]),
    ):
        sent = [json.loads(line) for line in (data / name).read_text().splitlines() if line]
        answer = client.post("/api/records/verify", json={"records": sent})
        assert answer.status_code == 200 and answer.json()["problems"] == []
        for rec, original in zip(answer.json()["records"], sent, strict=True):
            assert rec["sides"] == sides
            n = rec["rules"]["players"]
            history = replay_record(original).history
            assert len(rec["hands"]) == len(history) >= 1
            for hand, h in zip(rec["hands"], history, strict=True):
                assert len(hand["tricks"]) == len(h.tricks)
                for trick, t in zip(hand["tricks"], h.tricks, strict=True):
                    want = [(t.leader + k) % n for k in range(len(t.cards))]  # R1.3, R4.2
                    assert trick["seats"] == want and len(trick["cards"]) == len(want)
