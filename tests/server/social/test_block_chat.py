"""A block hides chat both ways, over real table sockets: the lines of a seat whose
account one blocks (or is blocked by) are neither in the history a socket gets when it
joins nor sent live; a guest watching sees every line; presence comes from sockets too."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.server.helpers import ServerProcess
from tests.server.social.conftest import member, together
from tests.support.timing import margin

JSON = "application/json"


def _open(srv: ServerProcess, table: str, c: httpx.Client | None) -> Any:
    headers = {}
    if c is not None:
        headers = {
            "Cookie": f"pitch_session={c.cookies['pitch_session']}",
            "X-Forwarded-For": c.headers["X-Forwarded-For"],
        }
    url = srv.base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    return websockets.connect(url, additional_headers=headers)


async def _until(ws: Any, want: Any) -> list[dict[str, Any]]:
    """Messages up to and with the first that ``want`` accepts."""
    seen = []
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), margin(30)))
        seen.append(m)
        if want(m):
            return seen


def _chat(ms: list[dict[str, Any]]) -> list[str]:
    out = []
    for m in ms:
        if m["type"] == "chat":
            out.append(m["text"])
        elif m["type"] == "chat_history":
            out += [x["text"] for x in m["lines"]]
    return out


def test_a_block_hides_chat_both_ways_and_not_from_others(accounts_server: ServerProcess) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        r = ann[0].post("/api/tables", json={"rules": {"players": 2}})
        table = r.json()["id"]
        tokens = []
        for seat, (c, _) in enumerate((ann, bob)):
            r = c.post(f"/api/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])

        async def run() -> None:
            async with _open(accounts_server, table, ann[0]) as a:
                await a.send(json.dumps({"type": "auth", "token": tokens[0]}))
                await _until(a, lambda m: m["type"] == "state")
                await a.send(json.dumps({"type": "chat", "text": "before the block"}))
                await _until(a, lambda m: m["type"] == "chat")
            assert bob[0].post("/api/blocks", json={"name": ann[1]}).status_code == 200
            async with (
                _open(accounts_server, table, ann[0]) as a,
                _open(accounts_server, table, bob[0]) as b,
                _open(accounts_server, table, None) as guest,
            ):
                await a.send(json.dumps({"type": "auth", "token": tokens[0]}))
                await b.send(json.dumps({"type": "auth", "token": tokens[1]}))
                await guest.send(json.dumps({"type": "spectate"}))
                a_seen = await _until(a, lambda m: m["type"] == "chat_history")
                b_seen = await _until(b, lambda m: m["type"] == "state")
                g_seen = await _until(guest, lambda m: m["type"] == "chat_history")
                assert _chat(a_seen) == _chat(g_seen) == ["before the block"]
                await b.send(json.dumps({"type": "chat", "text": "bob speaks"}))
                await a.send(json.dumps({"type": "chat", "text": "ann speaks"}))
                # Once the guest has both lines, each was sent to every socket it goes to.
                # Two sockets: the server may store (and send) Ann's line first.
                lines = {"bob speaks", "ann speaks"}
                while lines - set(_chat(g_seen)):
                    g_seen += await _until(guest, lambda m: m["type"] == "chat")
                for ws, seen in ((a, a_seen), (b, b_seen)):
                    await ws.send(json.dumps({"type": "ping"}))
                    seen += await _until(ws, lambda m: m["type"] == "pong")
                assert _chat(b_seen) == ["bob speaks"], b_seen  # no history, no ann
                assert _chat(a_seen) == ["before the block", "ann speaks"], a_seen
                assert _chat(g_seen)[0] == "before the block"
                assert sorted(_chat(g_seen)[1:]) == ["ann speaks", "bob speaks"], g_seen

        asyncio.run(run())
        # Unblocked: a socket opened now gets the whole history again.
        assert (
            bob[0]
            .delete(f"/api/blocks/{ann[1]}", headers={"Content-Type": "application/json"})
            .status_code
            == 204
        )

        async def again() -> list[dict[str, Any]]:
            async with _open(accounts_server, table, bob[0]) as b:
                await b.send(json.dumps({"type": "auth", "token": tokens[1]}))
                return await _until(b, lambda m: m["type"] == "chat_history")

        history = _chat(asyncio.run(again()))
        assert history[0] == "before the block"
        assert sorted(history[1:]) == ["ann speaks", "bob speaks"], history


def test_a_block_made_while_the_sockets_are_open_holds_at_once(
    accounts_server: ServerProcess,
) -> None:
    ann, bob = member(accounts_server, "Ann"), member(accounts_server, "Bob")
    with together(ann, bob):
        table = ann[0].post("/api/tables", json={"rules": {"players": 2}}).json()["id"]
        tokens = []
        for seat, (c, _) in enumerate((ann, bob)):
            r = c.post(f"/api/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
            tokens.append(r.json()["token"])

        async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            async with (
                _open(accounts_server, table, ann[0]) as a,
                _open(accounts_server, table, bob[0]) as b,
                _open(accounts_server, table, None) as guest,
            ):
                await a.send(json.dumps({"type": "auth", "token": tokens[0]}))
                await b.send(json.dumps({"type": "auth", "token": tokens[1]}))
                await guest.send(json.dumps({"type": "spectate"}))
                for ws in (a, b, guest):
                    await _until(ws, lambda m: m["type"] == "state")
                b_seen: list[dict[str, Any]] = []
                g_seen: list[dict[str, Any]] = []

                async def say(text: str) -> None:
                    await a.send(json.dumps({"type": "chat", "text": text}))
                    g_seen.extend(await _until(guest, lambda m: m.get("text") == text))
                    await b.send(json.dumps({"type": "ping"}))
                    b_seen.extend(await _until(b, lambda m: m["type"] == "pong"))

                await say("first")
                r = await asyncio.to_thread(bob[0].post, "/api/blocks", json={"name": ann[1]})
                assert r.status_code == 200, r.text
                await say("second")
                r = await asyncio.to_thread(
                    bob[0].delete, f"/api/blocks/{ann[1]}", headers={"Content-Type": JSON}
                )
                assert r.status_code == 204, r.text
                await say("third")
                return b_seen, g_seen

        b_seen, g_seen = asyncio.run(run())
        assert _chat(g_seen) == ["first", "second", "third"]
        assert _chat(b_seen) == ["first", "third"], b_seen
