"""Accounts and ratings in the cluster (issue 46): two players sign up through nginx,
play a rated game at whichever process owns its table, and every process, asked
directly, knows their sessions and shows the same new ratings."""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from sqlalchemy import Connection, create_engine, text

from tests.cluster.helpers import ClusterProcess, owner
from tests.server.helpers import play_rated
from tests.support.tables import ws_url
from tests.support.timing import margin

PASSWORD = "correct horse battery"


@pytest.fixture
def cluster(db: str, run_dir: Path) -> Iterator[ClusterProcess]:
    c = ClusterProcess(db, run_dir)
    c.start()
    try:
        yield c
    finally:
        c.stop()


def test_sessions_and_ratings_hold_through_every_process(cluster: ClusterProcess) -> None:
    with (
        httpx.Client(base_url=cluster.url, timeout=30) as ann,
        httpx.Client(base_url=cluster.url, timeout=30) as bob,
    ):
        for c in (ann, bob):
            r = c.post(
                "/api/accounts", json={"name": f"Cl {secrets.token_hex(3)}", "password": PASSWORD}
            )
            assert r.status_code == 201, r.text
        winner = play_rated(cluster.url, [ann, bob]).winner

        # Each process, asked directly (not through nginx), knows both sessions and
        # reads the ratings the owner's process wrote.
        for node in cluster.info["processes"]:
            for seat, c in enumerate((ann, bob)):
                with httpx.Client(
                    base_url=f"http://127.0.0.1:{node['port']}", cookies=c.cookies, timeout=30
                ) as direct:
                    deadline = time.monotonic() + margin(30)
                    while True:
                        r = direct.get("/api/account")
                        assert r.status_code == 200, (node["instance"], r.text)
                        ratings = r.json()["ratings"]
                        if ratings or time.monotonic() > deadline:
                            break
                        time.sleep(0.2)
                    got = ratings["headsup"]
                    assert got["games"] == 1, (node["instance"], got)
                    assert (got["rating"] > 1500) == (seat == winner), (got, winner)
        # Signing out through nginx ends the session at every process: the old cookie,
        # kept (as a thief would), is refused everywhere.
        stolen = {"pitch_session": str(ann.cookies.get("pitch_session"))}
        assert ann.request("DELETE", "/api/session", json={}).status_code == 204
        for node in cluster.info["processes"]:
            with httpx.Client(
                base_url=f"http://127.0.0.1:{node['port']}", cookies=stolen, timeout=30
            ) as direct:
                assert direct.get("/api/account").status_code == 401


def _once(db: str | Connection, table: str) -> tuple[int, int, list[int]]:
    """The table's rated-game rows, its history rows, and each rated account's games
    (read through ``db``: a database URL, or a connection already open)."""
    if isinstance(db, str):
        eng = create_engine(db)
        try:
            with eng.connect() as c:
                return _once(c, table)
        finally:
            eng.dispose()
    q = "SELECT count(*) FROM {} WHERE table_id = :t"
    games = db.execute(text(q.format("rated_games")), {"t": table}).scalar_one()
    history = db.execute(text(q.format("rating_history")), {"t": table}).scalar_one()
    counts = db.execute(text("SELECT games FROM ratings ORDER BY account_id")).scalars()
    return int(games), int(history), [int(n) for n in counts]


def _waits_for_ratings(watch: Connection) -> bool:
    """Whether a session waits for a lock on ``rated_games`` (``watch`` autocommits:
    in one transaction ``pg_stat_activity`` would show the same snapshot each time)."""
    q = (
        "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
        " AND wait_event_type = 'Lock' AND query ILIKE '%rated_games%'"
    )
    return bool(watch.execute(text(q)).scalar_one())


def test_an_owner_killed_between_the_last_card_and_the_rating_is_rated_once_elsewhere(
    cluster: ClusterProcess,
) -> None:
    """The crash the issue names, in the cluster: the rated game's last card is stored
    and everyone has seen the end, then its owner dies before the rating is written
    (the test holds ``rated_games`` locked, so the owner waits exactly there, and is
    SIGKILLed while it waits). The process that adopts the table rates the game once;
    killing that one too, the third adopts it again and does not rate it twice."""
    with (
        httpx.Client(base_url=cluster.url, timeout=30) as ann,
        httpx.Client(base_url=cluster.url, timeout=30) as bob,
    ):
        for c in (ann, bob):
            r = c.post(
                "/api/accounts", json={"name": f"Kl {secrets.token_hex(3)}", "password": PASSWORD}
            )
            assert r.status_code == 201, r.text
        eng = create_engine(cluster.db_url)
        lock = eng.connect()
        watch = eng.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            lock.execute(text("LOCK TABLE rated_games IN ACCESS EXCLUSIVE MODE"))
            game = play_rated(cluster.url, [ann, bob])  # everyone saw the end
            first = owner(cluster.db_url, game.table)
            deadline = time.monotonic() + margin(60)
            while not _waits_for_ratings(watch):  # the owner is at the rating write
                assert time.monotonic() < deadline, "the owner never came to the rating"
                time.sleep(0.1)
            cluster.signal(first, signal.SIGKILL)
            assert _once(lock, game.table) == (0, 0, [])  # the lock's holder may read
        finally:
            lock.rollback()
            lock.close()
            watch.close()
            eng.dispose()

        _come_back(cluster.url, game.table, game.tokens[0])  # the game-over page's socket

        def rated_by_another() -> str | None:
            now = owner(cluster.db_url, game.table)
            done = _once(cluster.db_url, game.table)[0] == 1
            return now if done and now != first else None

        second = _wait(rated_by_another, "another process to adopt and rate the game")
        assert _once(cluster.db_url, game.table) == (1, 2, [1, 1])

        cluster.signal(second, signal.SIGKILL)  # the next adopter must not rate it again
        _come_back(cluster.url, game.table, game.tokens[1])

        def adopted_again() -> str | None:
            now = owner(cluster.db_url, game.table)
            return now if now not in (first, second) else None

        third = _wait(adopted_again, "the third process to adopt the table")
        assert cluster.health(third)["ok"] is True
        assert _once(cluster.db_url, game.table) == (1, 2, [1, 1])
        r = ann.get("/api/account")
        assert r.status_code == 200 and r.json()["ratings"]["headsup"]["games"] == 1, r.text


def _come_back(base: str, table: str, token: str) -> None:
    """A player's page opening its table's socket again, as a browser does when the
    socket closes: the process nginx sends it to adopts the table (a finished one too),
    once the dead owner's lease has run out (until then the socket is refused)."""

    async def once() -> None:
        async with websockets.connect(ws_url(base, table)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            await asyncio.wait_for(ws.recv(), margin(30))

    deadline = time.monotonic() + margin(90)
    while True:
        try:
            asyncio.run(once())
            return
        except (OSError, TimeoutError, websockets.WebSocketException):
            assert time.monotonic() < deadline, "the table was never served again"
            time.sleep(0.5)


def _wait(found: Callable[[], str | None], what: str) -> str:
    deadline = time.monotonic() + margin(90)
    while (got := found()) is None:
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)
    return got
