"""Leaderboards and profiles through a real server: accounts made by the API, their
established ratings written to its database (ten rated games each would take minutes),
then ``GET /api/leaderboard/{kind}`` and ``GET /api/players/{name}`` read as a browser
would; and a rated game played out shows on both players' profiles."""

from __future__ import annotations

import secrets
import threading
import time
from datetime import UTC, datetime

import httpx
import pytest
from sqlalchemy import select

from pitch.server.ratings.scale import BOT_RATINGS
from tests.server.accounts.conftest import accounts_server, client
from tests.server.helpers import ServerProcess, play_rated, rate_at
from tests.support.timing import margin

__all__ = ["accounts_server"]  # the fixture, shared with tests/server/accounts

PASSWORD = "correct horse battery"


def _sign_up(c: httpx.Client, name: str) -> None:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def test_the_leaderboard_ranks_established_ratings_with_the_bots(
    accounts_server: ServerProcess,
) -> None:
    tag = secrets.token_hex(3)
    names = {k: f"{k} {tag}" for k in ("Top", "Low", "New", "Gone")}
    clients = {k: client(accounts_server) for k in names}
    try:
        for k, c in clients.items():
            _sign_up(c, names[k])
        rate_at(accounts_server, names["Top"], 2100, 12)
        rate_at(accounts_server, names["Low"], 1300, 10)
        rate_at(accounts_server, names["New"], 2500, 9)  # provisional: not listed
        rate_at(accounts_server, names["Gone"], 2200, 30)
        r = clients["Gone"].request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 204, r.text

        with client(accounts_server) as guest:
            r = guest.get("/api/leaderboard/solo")
        assert r.status_code == 200, r.text
        board = r.json()
        assert board["me"] is None and board["provisional_games"] == 10
        rows = board["rows"]
        assert [row["place"] for row in rows] == list(range(1, len(rows) + 1))
        ratings = [row["rating"] for row in rows]
        assert ratings == sorted(ratings, reverse=True)
        listed = [row["name"] for row in rows if row["name"] is not None]
        assert names["Top"] in listed and names["Low"] in listed
        assert names["New"] not in listed and not any("deleted" in n for n in listed)
        assert not any(n.startswith("Gone") for n in listed)
        bots = {row["bot"]: row for row in rows if row["bot"] is not None}
        assert set(bots) == set(BOT_RATINGS)
        for level, row in bots.items():
            assert row["rating"] == BOT_RATINGS[level] and row["name"] is None
            assert row["games"] is None
        top = next(row for row in rows if row["name"] == names["Top"])
        assert top["rating"] == 2100 and top["games"] == 12 and top["me"] is False

        r = clients["Low"].get("/api/leaderboard/solo")
        mine = r.json()
        low = next(row for row in mine["rows"] if row["name"] == names["Low"])
        assert low["me"] is True
        assert mine["me"] == {
            "place": low["place"],
            "rating": 1300,
            "provisional": False,
            "games": 10,
        }
        assert sum(row["me"] for row in mine["rows"]) == 1
        # Everyone above 1300 (the bots but the beginner) is above Low.
        assert low["place"] == 1 + sum(row["rating"] > 1300 for row in mine["rows"])

        new = clients["New"].get("/api/leaderboard/solo").json()["me"]
        assert new == {"place": None, "rating": 2500, "provisional": True, "games": 9}
        none = clients["Top"].get("/api/leaderboard/headsup").json()
        assert none["me"] == {"place": None, "rating": None, "provisional": True, "games": 0}
        assert [row["bot"] for row in none["rows"]] == sorted(
            BOT_RATINGS, key=lambda lv: -BOT_RATINGS[lv]
        )
    finally:
        for c in clients.values():
            c.close()


@pytest.mark.parametrize("kind", ["blitz", "HEADSUP", "x" * 10_000])
def test_an_unknown_kind_is_refused(accounts_server: ServerProcess, kind: str) -> None:
    with client(accounts_server) as c:
        r = c.get(f"/api/leaderboard/{kind}")
    assert r.status_code in (404, 422), r.text
    assert r.status_code == 422 or len(kind) > 1000, r.text


def test_profiles_are_found_by_the_folded_name_and_hostile_names_by_nobody(
    accounts_server: ServerProcess,
) -> None:
    name = f"Vera {secrets.token_hex(3)}"
    with client(accounts_server) as c:
        _sign_up(c, name)
        rate_at(accounts_server, name, 1600, 4, kind="headsup")
        for asked in (name, name.upper(), name.replace("Vera", "ＶＥＲＡ")):
            r = c.get(f"/api/players/{asked}")
            assert r.status_code == 200, (asked, r.text)
            p = r.json()
            assert p["name"] == name
            assert p["ratings"] == {
                "headsup": {
                    "rating": 1600,
                    "provisional": True,
                    "games": 4,
                    "wins": 2,
                    "left": 0,
                    "pitched": 0,
                    "set_back": 0,
                }
            }
            assert p["history"] == [] and p["recent"] == []
            assert datetime.fromisoformat(p["member_since"]) <= datetime.now(UTC)
        hostile = [
            "nobody " + secrets.token_hex(3),
            name.replace(" ", " \u200b"),  # zero-width space
            "\u202e" + name,  # right-to-left override
            name + "\u2066",  # bidi isolate
            "V\u0435ra " + name.split()[1],  # a Cyrillic e: a look-alike
        ]
        for asked in hostile:
            r = c.get(f"/api/players/{asked}")
            assert r.status_code == 404, (asked, r.text)
            assert r.json()["code"] == "no_player"
        r = c.get("/api/players/" + "a" * 10_000)
        assert r.status_code in (414, 422), r.text[:200]
        r = c.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 204, r.text
        r = c.get(f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["code"] == "no_player", r.text
        assert c.get("/api/players/deleted player 1").status_code == 404


def test_a_rated_game_shows_on_both_profiles(accounts_server: ServerProcess) -> None:
    tag = secrets.token_hex(3)
    names = [f"Ann {tag}", f"Bob {tag}"]
    with client(accounts_server) as ann, client(accounts_server) as bob:
        for c, n in zip((ann, bob), names, strict=True):
            _sign_up(c, n)
        game = play_rated(accounts_server.base, [ann, bob])
        t, winner = game.table, game.winner
        deadline = time.monotonic() + margin(30)
        profiles: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            profiles = [ann.get(f"/api/players/{n}").json() for n in names]
            # The rating is written just after the game's end, not with it.
            if all(p["history"] for p in profiles):
                break
            time.sleep(0.2)
        for seat, p in enumerate(profiles):
            history = p["history"]
            assert isinstance(history, list) and len(history) == 1, p
            game = history[0]
            assert game["table"] == t and game["kind"] == "headsup" and game["before"] == 1500
            assert game["outcome"] == ("win" if seat == winner else "loss")
            # The place (what a solo game's profile shows): from the rated game's result.
            assert (game["place"], game["sides"]) == ((1 if seat == winner else 2), 2)
            assert (game["after"] > 1500) == (seat == winner)
            assert p["recent"] == history
            ratings = p["ratings"]
            assert isinstance(ratings, dict) and ratings["headsup"]["rating"] == game["after"]
        # The recent game's replay: its record, whose hands say who pitched and who was
        # set back: the profiles count the same.
        r = ann.get(f"/api/tables/{t}/record")
        assert r.status_code == 200, r.text
        hands = r.json()["hands"]
        for seat, p in enumerate(profiles):
            mine = [h for h in hands if h["pitcher"] == seat]
            headsup = p["ratings"]["headsup"]  # type: ignore[index]
            assert headsup["pitched"] == len(mine) > 0, (headsup, len(mine))
            assert headsup["set_back"] == sum(not h["made"] for h in mine), headsup


def test_a_profile_is_one_snapshot_while_games_are_rated(
    accounts_server: ServerProcess,
) -> None:
    """Games are rated into the server's database (the ratings room's own code, one
    transaction each) while the profile is read again and again: its ratings' games
    count always equals the games its history lists, never one commit ahead."""
    from pitch.engine import Rules
    from pitch.server.ratings.store import RatingStore
    from pitch.server.tables.events import FinishedSeat, GameFinished
    from pitch.store import Database
    from pitch.store.models import AccountModel

    tag = secrets.token_hex(3)
    names = [f"Cy {tag}", f"Di {tag}"]
    with client(accounts_server) as cy, client(accounts_server) as di:
        for c, n in zip((cy, di), names, strict=True):
            _sign_up(c, n)
    db = Database(accounts_server.db_url, migrate=False)
    with db.sessions() as s:
        ids = [
            s.scalars(select(AccountModel.id).where(AccountModel.name == n)).one() for n in names
        ]
    store = RatingStore(db)
    rules = Rules(players=2)
    seats = tuple(FinishedSeat(i, i, True, None, None, False, False) for i in range(2))
    games = 150
    stop = threading.Event()

    def rate() -> None:
        for n in range(games):
            if stop.is_set():
                return
            ev = GameFinished(
                f"snap{tag}{n}", rules, "headsup", True, seats, rules.sides, (7, 2), (n % 2,), None
            )
            store.apply(ev, lambda _t: dict(enumerate(ids)))

    writer = threading.Thread(target=rate, daemon=True)
    reads = 0
    try:
        with client(accounts_server) as guest:
            writer.start()
            while writer.is_alive():
                r = guest.get(f"/api/players/{names[0]}")
                assert r.status_code == 200, r.text
                p = r.json()
                counted = p["ratings"].get("headsup", {}).get("games", 0)
                listed = sum(h["kind"] == "headsup" for h in p["history"])
                assert counted == listed, (reads, counted, listed)
                reads += 1
    finally:
        stop.set()
        writer.join(margin(60))
        db.engine.dispose()
    assert reads > 0
    final = client(accounts_server).get(f"/api/players/{names[0]}").json()
    assert final["ratings"]["headsup"]["games"] == len(final["history"]) == games


def test_the_pages_and_the_api_document(accounts_server: ServerProcess) -> None:
    client_page = '<script type="module" src="/js/app.js">'  # the web client's router
    with client(accounts_server) as c:
        for path in ("/leaderboard", "/players/Ann%20Marlowe", "/players/%E2%80%AE"):
            r = c.get(path)
            assert r.status_code == 200 and client_page in r.text, path
        paths = c.get("/openapi.json").json()["paths"]
    assert "/api/leaderboard/{kind}" in paths and "/api/players/{name}" in paths
    params = paths["/api/leaderboard/{kind}"]["get"]["parameters"]
    assert params[0]["schema"]["enum"] == ["headsup", "solo", "partnership"]
