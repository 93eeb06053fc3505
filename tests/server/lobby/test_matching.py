"""Quick play by rating (issue 46): which open table a signed-in player is offered.

The ranking itself with a given clock (:func:`ranked`), then through a real server:
accounts made by the API, their ratings written to its database, and
``POST /api/quickplay`` asked as the browser asks it."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from datetime import UTC, datetime, timedelta

import httpx

from pitch.server.lobby.matching import (
    WINDOW_GROWTH,
    WINDOW_OPEN,
    WINDOW_START,
    OpenTable,
    ranked,
    window,
)
from tests.server.accounts.conftest import accounts_server, client
from tests.server.helpers import ServerProcess, rate_at

__all__ = ["accounts_server"]

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def waiting(tid: str, seconds: float, *accounts: int) -> OpenTable:
    return OpenTable(tid, NOW - timedelta(seconds=seconds), frozenset(accounts))


def offer(
    tables: list[OpenTable], mine: int, ratings: dict[int, int], blocked: Collection[int] = ()
) -> list[str]:
    return ranked(tables, me=99, mine=mine, ratings={**ratings, 99: mine}, blocked=blocked, now=NOW)


def test_the_window_widens_with_the_wait_then_opens() -> None:
    assert window(0) == WINDOW_START
    assert window(10) == WINDOW_START + 10 * WINDOW_GROWTH
    assert window(WINDOW_OPEN - 1) < float("inf") <= window(WINDOW_OPEN)
    assert window(-5) == WINDOW_START  # a clock a little behind another process's


def test_the_nearest_rating_first_within_each_tables_window() -> None:
    tables = [
        waiting("far", 0, 1),  # 400 away, just opened: window 150
        waiting("near", 0, 2),  # 40 away
        waiting("nearer", 0, 3),  # 10 away
        waiting("old", WINDOW_OPEN, 4),  # 900 away, but it waited long enough
    ]
    got = offer(tables, 1500, {1: 1900, 2: 1460, 3: 1510, 4: 2400})
    assert got == ["nearer", "near", "old"]
    # The same table a little later: its window reaches 400 after 25 s.
    later = [waiting("far", (400 - WINDOW_START) / WINDOW_GROWTH, 1)]
    assert offer(later, 1500, {1: 1900}) == ["far"]


def test_a_tables_rating_is_its_players_mean_and_ties_keep_the_stores_order() -> None:
    tables = [waiting("a", 0, 1, 2), waiting("b", 0, 3), waiting("c", 0)]
    # Table a: mean of 1400 and 1600 = 1500, as near as b; c has nobody rated: last.
    assert offer(tables, 1500, {1: 1400, 2: 1600, 3: 1500}) == ["a", "b", "c"]


def test_blocks_and_own_tables_are_never_offered() -> None:
    tables = [waiting("blocked", WINDOW_OPEN, 1, 2), waiting("mine", 0, 99), waiting("ok", 0, 3)]
    assert offer(tables, 1500, {1: 1500, 2: 1500, 3: 1700}, blocked={2}) == []
    tables[2] = waiting("ok", WINDOW_OPEN, 3)
    assert offer(tables, 1500, {1: 1500, 2: 1500, 3: 1700}, blocked={2}) == ["ok"]


# ---------------------------------------------------------------- a real server

PASSWORD = "correct horse battery"
RATED = {"rules": {"players": 3}, "rated": True, "level": "club"}


def _player(srv: ServerProcess, name: str, rating: int) -> httpx.Client:
    c = client(srv)
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    rate_at(srv, name, rating, 12)
    return c


def _ask(c: httpx.Client) -> str:
    r = c.post("/api/quickplay", json=RATED)
    assert r.status_code == 200, r.text
    return str(r.json()["table"])


def _sit(c: httpx.Client, table: str, name: str) -> None:
    r = c.post(f"/api/tables/{table}/quickseat", json={"name": name})
    assert r.status_code == 200, r.text


def test_rated_quick_play_seats_strangers_by_rating(accounts_server: ServerProcess) -> None:
    """A 1500 player's table takes a 1550 player, not a 2700 one (1,200 points away:
    beyond any window short of the 90 s after which a table takes anyone), who gets a
    table of their own, which a 2650 player is then offered. A guest is matched as
    before: the first open table."""
    tag = secrets.token_hex(3)
    ann = _player(accounts_server, f"Ann {tag}", 1500)
    t1 = _ask(ann)
    _sit(ann, t1, f"Ann {tag}")
    with client(accounts_server) as guest:
        assert _ask(guest) == t1
    top = _player(accounts_server, f"Top {tag}", 2700)
    t2 = _ask(top)
    assert t2 != t1
    _sit(top, t2, f"Top {tag}")
    near = _player(accounts_server, f"Near {tag}", 1550)
    assert _ask(near) == t1
    high = _player(accounts_server, f"High {tag}", 2650)
    assert _ask(high) == t2


def test_quick_play_never_seats_a_player_beside_someone_who_blocked_them(
    accounts_server: ServerProcess,
) -> None:
    """Blocks come before ratings, in rated and casual quick play, and a direct
    ``quickseat`` at such a table is refused as a full table is (nothing says who is
    there); once unblocked, the table is offered again."""
    tag = secrets.token_hex(3)
    ann_name, bo_name = f"Ann {tag}", f"Bo {tag}"
    ann = _player(accounts_server, ann_name, 1500)
    bo = _player(accounts_server, bo_name, 1500)
    rated = _ask(ann)
    _sit(ann, rated, ann_name)
    r = ann.post("/api/friends", json={"name": bo_name})  # friends first: blocking ends it
    assert r.status_code == 200, r.text
    r = ann.post("/api/blocks", json={"name": bo_name})
    assert r.status_code == 200, r.text
    assert _ask(bo) != rated
    r = bo.post(f"/api/tables/{rated}/quickseat", json={"name": bo_name})
    assert r.status_code == 409 and r.json()["code"] == "no_open_seat", r.text
    casual = {**RATED, "rated": False}
    r = ann.post("/api/quickplay", json=casual)
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    _sit(ann, table, ann_name)
    r = bo.post("/api/quickplay", json=casual)
    assert r.status_code == 200 and r.json()["table"] != table, r.text
    assert ann.request("DELETE", f"/api/blocks/{bo_name}", json={}).status_code == 204
    assert _ask(bo) == rated
