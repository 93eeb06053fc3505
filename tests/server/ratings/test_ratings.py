"""The ratings room in-process: a service on a real database, games played to the end
through the play pipeline, the seat-to-account map injected (the accounts room's,
once it lands)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import pitch.server.wiring as wiring
from pitch.engine import Rules
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.schemas import CreateTable, QuickPlay, TableOptions
from pitch.server.ratings.store import RatingStore
from pitch.server.tables.events import GameFinished, TableAdopted, game_finished
from pitch.server.wiring import TableService
from pitch.store import Database
from pitch.store.models import RatedGameModel, RatingHistoryModel
from tests.support.databases import DBS, db_url
from tests.support.tables import service

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Accounts:
    """A seat-to-account map for every table (``wiring.seat_accounts``), counting its
    calls; ``fail`` makes the next call raise, as a database gone away would."""

    def __init__(self, seats: Mapping[int, int]) -> None:
        self.seats = dict(seats)
        self.calls = 0
        self.fail = False

    def __call__(self, _table_id: str) -> dict[int, int]:
        self.calls += 1
        if self.fail:
            self.fail = False
            raise OSError("the database went away")
        return self.seats


def _recorder(svc: TableService) -> list[Any]:
    seen: list[Any] = []

    async def note(ev: Any) -> None:
        seen.append(ev)

    svc.bus.subscribe(GameFinished, note)
    svc.bus.subscribe(TableAdopted, note)
    return seen


async def _play_out(svc: TableService, tid: str, seed: int = 0) -> None:
    """Every seat is a player's: random legal moves until the game is over."""
    rng = random.Random(seed)
    t = await svc.lifecycle.find(tid, live=True)
    while t.status != "over":
        async with t.lock:
            st = t.state
            assert st is not None
            await svc.play.apply(
                t, st.current_player(), rng.choice(list(st.legal_actions())), "player"
            )


async def _table(svc: TableService, players: int = 2, *, rated: bool = True, **rules: Any) -> str:
    req = CreateTable(rules={"players": players, **rules}, options=TableOptions(rated=rated))
    t = await svc.lifecycle.create(req, "client")
    for i in range(players):
        await svc.seats.claim(t.id, i, f"p{i}")
    return t.id


def _run(db: str, body: Any, accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wiring, "seat_accounts", accounts)
    asyncio.run(body(db))


@pytest.mark.parametrize("kind", DBS)
def test_a_rated_game_changes_ratings_once(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = Accounts({0: 1, 1: 2})

    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        seen = _recorder(svc)
        try:
            tid = await _table(svc)
            await _play_out(svc, tid)
            t = svc.tables[tid]
            assert t.state is not None and t.state.winner is not None
            (ev,) = seen  # one event, at the last card
            assert isinstance(ev, GameFinished)
            assert ev.table_id == tid and ev.kind == "headsup" and ev.rated
            assert ev.rules == Rules(players=2) and ev.sides == ((0,), (1,))
            assert ev.scores == tuple(t.state.scores) and ev.winners == (t.state.winner,)
            assert [s.name for s in ev.seats] == ["p0", "p1"]
            assert not any(s.left or s.late for s in ev.seats)
            assert accounts.calls == 1

            won = 1 + t.state.winner
            lost = 3 - won
            mine = {a: await svc.ratings.ratings_of(a) for a in (1, 2)}
            assert [(r.kind, r.games, r.provisional) for r in mine[won]] == [("headsup", 1, True)]
            assert mine[won][0].wins == 1 and mine[lost][0].wins == 0
            assert mine[won][0].rating > 1500 > mine[lost][0].rating
            (point,) = await svc.ratings.history(won)
            assert point.table_id == tid and point.before == 1500 and point.outcome == "win"
            assert point.after == mine[won][0].rating

            # Applied again (the sweep, an adoption, another process): nothing changes.
            assert not await svc.run_db(svc.ratings.store.apply, game_finished(t), accounts)
            assert await svc.ratings.sweep() == 0
            assert {a: await svc.ratings.ratings_of(a) for a in (1, 2)} == mine
            assert len(await svc.ratings.history(won)) == 1
        finally:
            await svc.stop()

        # Restarted: the finished table is adopted, never finished again.
        svc = service(db, "a")
        await svc.start()
        seen = _recorder(svc)
        try:
            t = await svc.lifecycle.find(tid, live=True)
            assert t.status == "over"
            assert [type(e) for e in seen] == [TableAdopted]
            assert {a: await svc.ratings.ratings_of(a) for a in (1, 2)} == mine
        finally:
            await svc.stop()

    _run(db_url(kind, tmp_path), body, accounts, monkeypatch)


@pytest.mark.parametrize("kind", DBS)
def test_a_game_left_unrated_is_rated_by_the_sweep_once(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rating write fails at the game's end (the database away): the game is over
    # and stored, unrated; the next start-up's sweep rates it, once.
    accounts = Accounts({0: 1, 1: 2, 2: 3})

    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        try:
            tid = await _table(svc, 3)
            casual = await _table(svc, 3, rated=False)
            accounts.fail = True
            await _play_out(svc, tid, seed=1)
            await _play_out(svc, casual, seed=2)
            assert svc.tables[tid].status == "over"
            assert [await svc.ratings.ratings_of(a) for a in (1, 2, 3)] == [[]] * 3
            assert await svc.run_db(svc.ratings.store.unrated) == [tid]
        finally:
            await svc.stop()
        svc = service(db, "a")
        await svc.start()  # the sweep
        try:
            got = [await svc.ratings.ratings_of(a) for a in (1, 2, 3)]
            assert [[(r.kind, r.games) for r in g] for g in got] == [[("solo", 1)]] * 3
            assert await svc.run_db(svc.ratings.store.unrated) == []
            assert await svc.ratings.sweep() == 0
            assert [await svc.ratings.ratings_of(a) for a in (1, 2, 3)] == got
        finally:
            await svc.stop()

    _run(db_url(kind, tmp_path), body, accounts, monkeypatch)


def test_a_resignation_that_ends_the_game_is_a_loss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The last player at a table of bots resigns: the game is over, with no winner,
    # and for them a loss against the bots, whose fixed ratings do not move.
    accounts = Accounts({0: 7})

    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        seen = _recorder(svc)
        try:
            seats = [
                {"kind": "human"},
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "random"},
            ]
            req = CreateTable.model_validate(
                {"rules": {"players": 3}, "seats": seats, "options": {"rated": True}}
            )
            t = await svc.lifecycle.create(req, "client")
            token = await svc.seats.claim(t.id, 0, "ann")
            left = await svc.seats.leave(t.id, token, "client")
            assert left.status == "over"
            (ev,) = seen
            assert ev.resigned == 0 and ev.winners == () and ev.seats[0].left
            assert [s.bot for s in ev.seats[1:]] == ["heuristic", "random"]
            (r,) = await svc.ratings.ratings_of(7)
            assert (r.kind, r.games, r.wins, r.left) == ("solo", 1, 0, 1)
            assert r.rating < 1500
            (point,) = await svc.ratings.history(7)
            assert point.outcome == "loss" and point.left
        finally:
            await svc.stop()

    _run(db_url("sqlite", tmp_path), body, accounts, monkeypatch)


def test_rated_tables_play_the_standard_rules_only(tmp_path: Path) -> None:
    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        try:
            for rules in ({"target": 11}, {"players": 4, "smudge": True}):
                with pytest.raises(ServiceError) as e:
                    await svc.lifecycle.create(
                        CreateTable(rules=rules, options=TableOptions(rated=True)), "c"
                    )
                assert e.value.code == "rated_rules" and e.value.status == 422
                assert e.value.extra["fields"] == next(iter(rules.keys() - {"players"}))
                assert "standard rules" in e.value.detail
            with pytest.raises(ServiceError) as e:
                await svc.quick.table(QuickPlay(preset="club", rated=True), "c")
            assert e.value.code == "rated_rules"
            assert "must_make_bid_to_win" in str(e.value.extra["fields"])
            # Casual tables take house rules; rated ones any size, partnerships too.
            await svc.lifecycle.create(CreateTable(rules={"target": 11}), "c")
            for rules in ({"players": 2}, {"players": 7}, {"partnerships": True}):
                t = await svc.lifecycle.create(
                    CreateTable(rules=rules, options=TableOptions(rated=True)), "c"
                )
                assert t.options.rated
        finally:
            await svc.stop()

    asyncio.run(body(db_url("sqlite", tmp_path)))


def test_quick_play_seats_rated_and_casual_players_apart(tmp_path: Path) -> None:
    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        try:
            rated = await svc.quick.table(QuickPlay(rules={"players": 3}, rated=True), "c")
            await svc.quick.seat(rated, "ann")
            casual = await svc.quick.table(QuickPlay(rules={"players": 3}), "c")
            assert casual != rated
            await svc.quick.seat(casual, "bob")
            assert (await svc.lifecycle.find(rated)).options.rated
            assert not (await svc.lifecycle.find(casual)).options.rated
            # The next of each kind is offered the open seat of its own kind's table.
            assert await svc.quick.table(QuickPlay(rules={"players": 3}, rated=True), "d") == rated
            assert await svc.quick.table(QuickPlay(rules={"players": 3}), "d") == casual
        finally:
            await svc.stop()

    asyncio.run(body(db_url("sqlite", tmp_path)))


def _event(tid: str, winner: int, *, bot: str | None = None) -> GameFinished:
    """A heads-up game between accounts (or against a bot of spec ``bot``)."""
    from pitch.server.tables.events import FinishedSeat

    seats = tuple(
        FinishedSeat(i, i, not (bot and i == 1), None, bot if i == 1 else None, False, False)
        for i in range(2)
    )
    scores = (7, 2) if winner == 0 else (2, 7)
    rules = Rules(players=2)
    return GameFinished(tid, rules, "headsup", True, seats, rules.sides, scores, (winner,), None)


def test_the_leaderboard_has_established_players_and_the_bots(tmp_path: Path) -> None:
    db = Database(db_url("sqlite", tmp_path))
    store = RatingStore(db)
    try:
        # Account 1 beats account 2 twelve times; account 3 plays one game (provisional).
        for n in range(12):
            assert store.apply(_event(f"g{n}", 0), lambda _t: {0: 1, 1: 2})
        assert store.apply(_event("h", 0, bot="random"), lambda _t: {0: 3})
        assert not store.apply(_event("g0", 1), lambda _t: {0: 1, 1: 2})  # rated already
        board = store.leaderboard("headsup", account_id=1)
        rows = [(r.account_id, r.bot) for r in board.rows]
        # Bots are on it, marked, at their fixed ratings; the provisional account is not.
        assert (None, "master") in rows and (None, "beginner") in rows
        assert (3, None) not in rows
        assert [r.place for r in board.rows] == list(range(1, len(rows) + 1))
        assert [r.rating for r in board.rows] == sorted(
            (r.rating for r in board.rows), reverse=True
        )
        me = next(r for r in board.rows if r.account_id == 1)
        assert board.place == me.place and me.games == 12
        assert store.leaderboard("headsup", account_id=3).place is None
        assert store.leaderboard("solo").rows[0].bot == "master"  # bots only, so far
        (p,) = store.ratings_of(3)
        assert p.provisional and p.games == 1
        assert [(h.before, h.outcome) for h in store.history(1)][:1] == [(1500, "win")]
        assert len(store.history(1)) == 12
        with db.sessions() as s:
            assert s.query(RatedGameModel).count() == 13
            assert s.query(RatingHistoryModel).count() == 12 * 2 + 1
    finally:
        db.close()


def test_a_finished_game_adopted_unrated_is_rated_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rating write failed at the game's end; the table leaves memory and is
    # adopted again (as another process of a cluster would): rated then, once.
    accounts = Accounts({0: 1, 1: 2})

    async def body(db: str) -> None:
        svc = service(db, "a")
        await svc.start()
        try:
            tid = await _table(svc)
            accounts.fail = True
            await _play_out(svc, tid, seed=3)
            assert await svc.ratings.ratings_of(1) == []
            svc.lifecycle.let_go(svc.tables[tid])
            await svc.lifecycle.find(tid, live=True)
            assert [r.games for r in await svc.ratings.ratings_of(1)] == [1]
            svc.lifecycle.let_go(svc.tables[tid])
            await svc.lifecycle.find(tid, live=True)
            assert [r.games for r in await svc.ratings.ratings_of(1)] == [1]
        finally:
            await svc.stop()

    _run(db_url("sqlite", tmp_path), body, accounts, monkeypatch)


def test_the_api_takes_rated_tables_and_refuses_house_rules(tmp_path: Path) -> None:
    from tests.server.inprocess import app_client, in_process_settings

    with app_client(in_process_settings(tmp_path)) as c:
        rated = {"options": {"rated": True}}
        r = c.post("/api/tables", json={"rules": {"target": 11}, **rated})
        assert r.status_code == 422 and r.json()["code"] == "rated_rules", r.text
        assert r.json()["fields"] == "target" and "standard rules" in r.json()["detail"]
        r = c.post("/api/quickplay", json={"preset": "no-steal", "rated": True})
        assert r.status_code == 422 and r.json()["fields"] == "dealer_may_steal", r.text
        r = c.post("/api/tables", json={"rules": {"players": 3}, **rated})
        assert r.status_code == 201, r.text
        assert r.json()["options"]["rated"] is True
        assert c.get(f"/api/tables/{r.json()['id']}").json()["options"]["rated"] is True
        r = c.post("/api/tables", json={"rules": {"players": 3}})
        assert r.json()["options"]["rated"] is False
        r = c.post("/api/quickplay", json={"rules": {"players": 2}, "rated": True})
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("kind", DBS)
def test_two_processes_rating_at_once_rate_each_game_once(kind: str, tmp_path: Path) -> None:
    # Two database connections (two processes of a cluster) rate at the same time: the
    # same game twice (once only), and different games of one player (both count,
    # neither from a rating the other has already changed).
    from concurrent.futures import ThreadPoolExecutor

    url = db_url(kind, tmp_path)
    dbs = [Database(url) for _ in range(2)]
    stores = [RatingStore(db) for db in dbs]
    try:
        both = {0: 1, 1: 2}
        with ThreadPoolExecutor(8) as pool:
            same = list(
                pool.map(lambda n: stores[n % 2].apply(_event("g", 0), lambda _t: both), range(8))
            )
            assert sum(same) == 1
            games = [f"h{n}" for n in range(8)]
            done = list(
                pool.map(
                    lambda n: stores[n % 2].apply(_event(games[n], n % 2), lambda _t: both),
                    range(8),
                )
            )
        assert all(done)
        assert [(r.games, r.wins) for r in stores[0].ratings_of(1)] == [(9, 5)]
        assert [(r.games, r.wins) for r in stores[1].ratings_of(2)] == [(9, 4)]
        # Each history row starts where the one before it ended: no update was lost.
        points = stores[0].history(1)
        mus = []
        with dbs[0].sessions() as s:
            rows = s.query(RatingHistoryModel).filter_by(account_id=1).all()
            mus = sorted((h.mu_before, h.mu_after) for h in rows)
        starts = {b for b, _ in mus}
        ends = {a for _, a in mus}
        assert len(starts) == len(points) == 9 and len(starts - ends) == 1  # only the first
    finally:
        for db in dbs:
            db.close()
