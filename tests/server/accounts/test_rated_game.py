"""Accounts and ratings together, through a real server: two signed-in players take
the seats of a rated table, play it out, and each reads a changed rating from
``GET /api/account``; a guest at a rated table is not rated and has no account."""

from __future__ import annotations

import asyncio
import secrets
import time

import httpx

from tests.server.accounts.conftest import client
from tests.server.helpers import Player, ServerProcess
from tests.support.timing import margin

PASSWORD = "correct horse battery"


def _account(c: httpx.Client) -> dict[str, object]:
    r = c.get("/api/account")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_rated_game_between_accounts_changes_both_ratings(
    accounts_server: ServerProcess,
) -> None:
    with client(accounts_server) as ann, client(accounts_server) as bob:
        for c in (ann, bob):
            r = c.post(
                "/api/accounts",
                json={"name": f"Rated {secrets.token_hex(3)}", "password": PASSWORD},
            )
            assert r.status_code == 201, r.text
            assert _account(c)["ratings"] == {}
        r = ann.post("/api/tables", json={"rules": {"players": 2}, "options": {"rated": True}})
        assert r.status_code == 201, r.text
        t = r.json()["id"]
        tokens = []
        for seat, c in enumerate((ann, bob)):
            r = c.post(f"/api/tables/{t}/seats/{seat}", json={"name": f"p{seat}"})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        players = [Player(accounts_server.base, t, tok, seed=i) for i, tok in enumerate(tokens)]

        async def play() -> None:
            await asyncio.gather(*(p.play() for p in players))

        asyncio.run(play())
        final = players[0].last_state
        assert final is not None and final["status"] == "over"
        winner = final["game"]["winner"]
        # The rating is written after the game's end is stored: wait for it.
        deadline = time.monotonic() + margin(30)
        seen: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            seen = [_account(c) for c in (ann, bob)]
            if all(s["ratings"] for s in seen):
                break
            time.sleep(0.2)
        for seat, s in enumerate(seen):
            ratings = s["ratings"]
            assert isinstance(ratings, dict) and set(ratings) == {"headsup"}, s
            r = ratings["headsup"]
            assert r["games"] == 1 and r["provisional"] is True, r
            assert r["wins"] == (1 if seat == winner else 0), (r, winner)
            assert (r["rating"] > 1500) == (seat == winner), (r, winner)
