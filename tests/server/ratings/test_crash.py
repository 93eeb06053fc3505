"""A real server killed (SIGKILL) between a rated game's last card and its rating
write: after the restart the game is rated, once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from pitch.store import Database
from pitch.store.models import RatedGameModel, RatingHistoryModel
from tests.server.helpers import Player, ServerProcess, claim, create_table
from tests.server.ratings.accounts_server import ACCOUNT_BASE
from tests.support.databases import db_url
from tests.support.timing import margin

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _rated(db: Database) -> tuple[list[tuple[int, int]], int, int]:
    """(account, games) per rating row; rated games; history rows."""
    from pitch.store.models import RatingModel

    with db.sessions() as s:
        ratings = sorted((r.account_id, r.games) for r in s.query(RatingModel))
        return ratings, s.query(RatedGameModel).count(), s.query(RatingHistoryModel).count()


def test_killed_between_the_last_card_and_the_rating_it_rates_once_after_restart(
    db_kind: str, tmp_path: Path
) -> None:
    url = db_url(db_kind, tmp_path)
    marker = tmp_path / "killed"
    srv = ServerProcess(
        url,
        log=tmp_path / "server.log",
        module="tests.server.ratings.accounts_server",
        env={"PITCH_TEST_KILL_AT_RATING": str(marker)},
    )
    srv.start()
    db: Database | None = None
    try:
        t = create_table(srv.base, {"rules": {"players": 2}, "options": {"rated": True}})
        claims = [claim(srv.base, t["id"], i, f"p{i}") for i in range(2)]
        players = [Player(srv.base, t["id"], c["token"], seed=i) for i, c in enumerate(claims)]

        async def play() -> None:
            await asyncio.gather(*(p.play() for p in players))

        asyncio.run(play())
        assert srv.proc is not None
        assert srv.proc.wait(margin(60)) == -9  # it killed itself at the rating
        assert marker.read_text() == t["id"]

        db = Database(url)
        from pitch.server.ratings.store import RatingStore

        assert RatingStore(db).unrated() == [t["id"]]  # over, and not rated
        assert _rated(db) == ([], 0, 0)

        srv.start()  # the start-up sweep rates it
        state = httpx.get(f"{srv.base}/api/tables/{t['id']}/state", timeout=10).json()
        assert state["status"] == "over"
        accounts = [ACCOUNT_BASE, ACCOUNT_BASE + 1]
        assert _rated(db) == ([(a, 1) for a in accounts], 1, 2)

        srv.stop()  # and again: nothing more
        srv.start()
        assert _rated(db) == ([(a, 1) for a in accounts], 1, 2)
    finally:
        srv.stop()
        if db is not None:
            db.close()
