"""GET /api/tables/{id}/ratings: a rated game's rating changes by seat, for the
game-over panel; ``rated`` false until the ratings room has written them, and for a
casual table. Through a real server."""

from __future__ import annotations

import secrets
import time

from tests.server.accounts.conftest import client
from tests.server.helpers import ServerProcess, play_rated
from tests.support.timing import margin

PASSWORD = "correct horse battery"


def test_a_rated_games_changes_by_seat(accounts_server: ServerProcess) -> None:
    with client(accounts_server) as ann, client(accounts_server) as bob:
        for c in (ann, bob):
            r = c.post(
                "/api/accounts",
                json={"name": f"Seat {secrets.token_hex(3)}", "password": PASSWORD},
            )
            assert r.status_code == 201, r.text
        # A rated table not over yet: nothing written.
        r = ann.post("/api/tables", json={"rules": {"players": 2}, "options": {"rated": True}})
        assert r.status_code == 201, r.text
        fresh = ann.get(f"/api/tables/{r.json()['id']}/ratings").json()
        assert fresh == {"rated": False, "kind": None, "seats": []}
        game = play_rated(accounts_server.base, [ann, bob])
        t, winner = game.table, game.winner
        deadline = time.monotonic() + margin(30)
        while not (got := bob.get(f"/api/tables/{t}/ratings").json())["rated"]:
            assert time.monotonic() < deadline, got
            time.sleep(0.2)
        assert got["kind"] == "headsup"
        seats = {s["seat"]: s for s in got["seats"]}
        assert set(seats) == {0, 1}, got
        for seat, s in seats.items():
            assert s["outcome"] == ("win" if seat == winner else "loss"), (s, winner)
            assert (s["after"] > s["before"]) == (seat == winner), s
            # The same numbers as the account's own rating now.
            mine = (ann, bob)[seat].get("/api/account").json()["ratings"]["headsup"]
            assert mine["rating"] == s["after"], (mine, s)


def test_a_casual_table_is_never_rated(accounts_server: ServerProcess) -> None:
    with client(accounts_server) as c:
        r = c.post("/api/tables", json={"rules": {"players": 2}})
        assert r.status_code == 201, r.text
        got = c.get(f"/api/tables/{r.json()['id']}/ratings").json()
        assert got == {"rated": False, "kind": None, "seats": []}
