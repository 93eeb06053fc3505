"""Accounts and ratings together, through a real server: two signed-in players take
the seats of a rated table, play it out, and each reads a changed rating from
``GET /api/account``; a guest at a rated table is not rated and has no account."""

from __future__ import annotations

import secrets
import time

import httpx

from tests.server.accounts.conftest import client
from tests.server.helpers import ServerProcess, play_rated
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
        winner = play_rated(accounts_server.base, [ann, bob]).winner
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
