"""``hint`` messages in-process: the hint bot's action for the asker's own view, sent to
the asker alone, refused out of turn."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitch.bots import make_bot
from pitch.bots.explain import explain
from pitch.engine import action_str
from tests.server.inprocess import (
    TestClient,
    WebSocketTestSession,
    app_client,
    in_process_settings,
)
from tests.support.timing import margin

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # The heuristic bot is deterministic, so the test can ask it the same question.
    settings = in_process_settings(
        tmp_path,
        hint_bot="heuristic",
        ws_messages_per_second=1000,
        ws_burst=1000,
    )
    with app_client(settings) as c:
        _workers_ready(c)
        yield c


def _workers_ready(client: TestClient) -> None:
    """Wait until a bot worker has started (on a busy machine that can take longer
    than one decision's bound, and a hint asked before then fails by design)."""
    import time

    deadline = time.monotonic() + margin(120)
    while client.get("/api/health").json()["bot_workers"]["ready"] < 1:
        assert time.monotonic() < deadline, "no bot worker started"
        time.sleep(0.1)


def _next(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (or an error), skipping state broadcasts."""
    for _ in range(50):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in (kind, "error"):
            return m
    raise AssertionError(f"no {kind} message")


def test_hint_is_the_bots_action_for_the_askers_view(client: TestClient) -> None:
    body = {"rules": {"players": 2, "target": 3}, "seats": [{"kind": "human"}] * 2}
    t = client.post("/api/tables", json=body).json()["id"]
    tokens = [
        client.post(f"/api/tables/{t}/seats/{i}", json={"name": f"p{i}"}).json()["token"]
        for i in range(2)
    ]
    service = client.app.state.service  # type: ignore[attr-defined]
    bot = make_bot("heuristic", rng=random.Random(0))
    with (
        client.websocket_connect(f"/ws/tables/{t}") as a,
        client.websocket_connect(f"/ws/tables/{t}") as b,
        client.websocket_connect(f"/ws/tables/{t}") as watcher,
    ):
        socks = [a, b]
        for ws, tok in zip(socks, tokens, strict=True):
            ws.send_json({"type": "auth", "token": tok})
            assert _next(ws, "welcome")["role"] == "player"
        watcher.send_json({"type": "spectate"})
        _next(watcher, "welcome")
        watcher.send_json({"type": "hint"})
        assert _next(watcher, "hint")["code"] == "spectator"
        # Follow the hints through the first hand: bids, the pitch, every trick.
        turns = 0
        while not service.tables[t].state.history:
            turns += 1
            assert turns <= 30
            state = service.tables[t].state
            seat = state.current_player()
            me, other = socks[seat], socks[1 - seat]
            other.send_json({"type": "hint"})
            refused = _next(other, "hint")
            assert refused["code"] == "not_your_turn" and refused["turn"] == seat
            me.send_json({"type": "hint"})
            got = _next(me, "hint")
            view = state.view(seat)
            expected = bot.act(view)
            assert got == {
                "type": "hint",
                "action": action_str(expected),
                "bot": "heuristic",
                "seq": service.tables[t].seq,
                "why": explain(view, expected).to_json(),
                "evidence": None,  # the heuristic has no figures of its own
            }
            # Only the asker heard it: the others' next replies are their own.
            for ws in (other, watcher):
                ws.send_json({"type": "ping"})
                assert _types_until_pong(ws) <= {"state"}
            me.send_json({"type": "action", "action": got["action"]})
            m = _next(me, "state")
            while m["type"] == "state" and m["seq"] == got["seq"]:  # wait until applied
                m = _next(me, "state")
            assert m["type"] == "state", m
        # R4 six tricks of two cards, and R3 two bids, or one: a bid of 4 ends the
        # auction at once (R3.4; the assertion once met such a deal).
        assert turns >= 2 * 6 + 1


def _types_until_pong(ws: WebSocketTestSession) -> set[str]:
    seen: set[str] = set()
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == "pong":
            return seen
        seen.add(m["type"])
    raise AssertionError("no pong")


def test_default_hint_bot_is_a_search_bot(tmp_path: Path) -> None:
    settings = in_process_settings(tmp_path)
    assert settings.hint_bot.startswith("pimc:")  # docs/server.md names it
    body = {"rules": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    with app_client(settings) as client:
        _workers_ready(client)
        t = client.post("/api/tables", json=body).json()["id"]
        token = client.post(f"/api/tables/{t}/seats/0", json={"name": "ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{t}") as ws:
            ws.send_json({"type": "auth", "token": token})
            state = _next(ws, "state")
            while state["game"]["turn"] != 0:  # the random bot bids first
                state = _next(ws, "state")
            ws.send_json({"type": "hint"})
            got = _next(ws, "hint")
    assert got["type"] == "hint" and got["bot"] == settings.hint_bot
    assert got["action"] in state["game"]["legal"]
    # The search bot says why, in keys the catalogs translate, with its own figures.
    assert got["why"]["key"] and isinstance(got["why"]["args"], dict)
    if len(state["game"]["legal"]) > 1:
        ev = got["evidence"]
        assert ev is not None and ev["args"].get("deals", 1) >= 1
        assert ev["args"]["alt"] in state["game"]["legal"] and ev["args"]["alt"] != got["action"]
