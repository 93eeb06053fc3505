"""Table chat (issue 17): quick phrases and bounded free text, stored with the game and
sent again to whoever joins; spectators only where the table allows it; hostile input
refused (tests against a real server)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.server.helpers import ServerProcess, claim, create_table
from tests.support.tables import ws_url


async def _open(base: str, table: str, hello: dict[str, Any]) -> Any:
    ws = await websockets.connect(ws_url(base, table))
    await ws.send(json.dumps(hello))
    return ws


async def _next(ws: Any, kind: str, seat: int | None = None) -> dict[str, Any]:
    """The next message of ``kind`` (a chat line: from ``seat``, if given)."""
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] == kind and (seat is None or m.get("seat") == seat):
            return dict(m)


def test_chat_between_players_is_stored_and_replayed(server: ServerProcess) -> None:
    base = server.base
    phrases = httpx.get(f"{base}/api/chat").json()["phrases"]
    assert "Good game!" in phrases
    t = create_table(base, {"rules": {"players": 2}})["id"]
    ann, bo = (claim(base, t, s, n)["token"] for s, n in enumerate(["Ann", "<b>Bo</b>"]))

    async def run() -> None:
        a = await _open(base, t, {"type": "auth", "token": ann})
        b = await _open(base, t, {"type": "auth", "token": bo})
        await _next(a, "state")
        await _next(b, "state")
        await a.send(json.dumps({"type": "chat", "phrase": phrases.index("Good luck!")}))
        got = await _next(b, "chat", 0)
        assert got == {"type": "chat", "n": 0, "seat": 0, "name": "Ann", "phrase": 1}
        await b.send(json.dumps({"type": "chat", "text": "  nice\n  hand   "}))
        got = await _next(a, "chat", 1)
        assert got["text"] == "nice hand" and got["name"] == "<b>Bo</b>" and got["seat"] == 1
        # Refused: both or neither, an unknown phrase, too long, not printable.
        for bad in (
            {"type": "chat"},
            {"type": "chat", "phrase": 1, "text": "x"},
            {"type": "chat", "phrase": 99},
            {"type": "chat", "text": "x" * 201},
            {"type": "chat", "text": "\u0007"},
        ):
            await a.send(json.dumps(bad))
            err = await _next(a, "error")
            assert err["code"] in ("bad_chat", "bad_message"), (bad, err)
        # Spectators read it but may not write (the default).
        s = await _open(base, t, {"type": "spectate"})
        hist = await _next(s, "chat_history")
        assert [x["n"] for x in hist["lines"]] == [0, 1]
        await s.send(json.dumps({"type": "chat", "phrase": 0}))
        assert (await _next(s, "error"))["code"] == "spectator"
        # A flood is cut off.
        for _ in range(8):
            await b.send(json.dumps({"type": "chat", "phrase": 0}))
        assert (await _next(b, "error"))["code"] == "rate_limited"
        for w in (a, b, s):
            await w.close()

    asyncio.run(run())
    # Stored with the game: a restart-proof history, seen by a new socket.

    async def later() -> list[int]:
        a = await _open(base, t, {"type": "auth", "token": ann})
        hist = await _next(a, "chat_history")
        await a.close()
        return [x["n"] for x in hist["lines"]]

    assert asyncio.run(later())[:2] == [0, 1]


def test_a_table_can_limit_chat(server: ServerProcess) -> None:
    base = server.base
    body = {"rules": {"players": 2}, "options": {"chat": "phrases"}}
    t = create_table(base, body)["id"]
    tok = claim(base, t, 0, "Ann")["token"]

    async def run() -> tuple[str, str]:
        a = await _open(base, t, {"type": "auth", "token": tok})
        await a.send(json.dumps({"type": "chat", "text": "hello"}))
        refused = (await _next(a, "error"))["code"]
        await a.send(json.dumps({"type": "chat", "phrase": 0}))
        ok = (await _next(a, "chat"))["type"]
        await a.close()
        return refused, ok

    assert asyncio.run(run()) == ("chat_off", "chat")
    r = httpx.post(f"{base}/api/tables", json={"options": {"chat": "loud"}})
    assert r.status_code == 422


def test_chat_text_follows_the_text_rule(server: ServerProcess) -> None:
    # Issue 43: emoji sequences pass whole (their joiners and selectors); zalgo (a pile
    # of combining marks), text-direction and invisible characters are refused, saying
    # why; a line's length is counted in characters as a reader sees them.
    base = server.base
    t = create_table(base, {"rules": {"players": 2}})["id"]
    ann, bo = (claim(base, t, s, n)["token"] for s, n in enumerate(["Ann", "Bo"]))
    zalgo = "h\u0351\u0308\u0350\u0343\u0344\u0313i"

    async def run() -> None:
        a = await _open(base, t, {"type": "auth", "token": ann})
        b = await _open(base, t, {"type": "auth", "token": bo})
        await _next(a, "state")
        await _next(b, "state")
        for bad, reason in [
            (zalgo, "marks"),
            ("gg \u202eevil", "invisible"),
            ("g\u200bg", "invisible"),
            ("\u2066gg\u2069", "invisible"),
            ("x" * 201, "too_long"),
        ]:
            await a.send(json.dumps({"type": "chat", "text": bad}))
            err = await _next(a, "error")
            assert (err["code"], err.get("reason")) == ("bad_chat", reason), (bad, err)
            assert err["message"].startswith("A chat line"), err
        # Three lines: within the chat's rate (5 at once); refusals spend none of it.
        for good in ("👩🏽\u200d🚀 🏳️\u200d🌈 gg", "Nguyễn: 1️⃣ 🇳🇴", "🙂" * 200):
            await a.send(json.dumps({"type": "chat", "text": good}, ensure_ascii=False))
            assert (await _next(b, "chat", 0))["text"] == good
        for w in (a, b):
            await w.close()

    asyncio.run(run())
