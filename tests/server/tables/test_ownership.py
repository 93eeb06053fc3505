"""Leases, adoption and handoffs between processes on one database, in-process and
quick (docs/deploy.md, "Ownership and failover"); tests/cluster/ does the same with
real processes behind nginx."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from pitch.engine import PlayerView
from pitch.server.botplay.workers import fallback
from pitch.server.tables.live import LiveTable
from pitch.server.tables.play import NotStored
from pitch.server.wiring import ServiceError, TableService
from pitch.store import Append, Database
from pitch.store.ownership import Ownership
from tests.support.databases import DBS, db_url
from tests.support.tables import service, started_table
from tests.support.timing import margin


def test_a_lease_taken_anew_cannot_be_renewed_by_the_old_holder(tmp_path: Path) -> None:
    db = Database(db_url("sqlite", tmp_path))
    try:
        old, new = Ownership(db, "a"), Ownership(db, "a")
        old.acquire(5.0)
        assert old.renew(5.0)
        new.acquire(5.0)  # a restart under the same name, the old one stopped
        assert not old.renew(5.0)
        assert new.renew(5.0)
        new.release()
        assert not new.renew(5.0)  # released: it ran out
    finally:
        db.close()


async def _adopt_and_hand_over(db: str) -> None:
    async with _running(db) as a, _running(db, "b") as b:
        tid = await started_table(a)
        # b is asked for a's table while a is alive (its lease never runs out): a
        # hands it over at a heartbeat.
        t = await b.lifecycle.find(tid, live=True)
        assert tid in b.tables and tid not in a.tables
        assert t.state is not None
        # b's lease is long (tests.support.tables.service): no stall of a loaded
        # machine makes it lapse, so b stores the move at once.
        await b.play.apply(
            t, t.state.current_player(), next(iter(t.state.legal_actions())), "player"
        )
        assert t.seq == 2
        # a, asked again, gets it back (the proxy moved it again): never two writers.
        back = await a.lifecycle.find(tid, live=True)
        assert back.seq == 2 and tid not in b.tables
        # A table nobody has is 404, not a wait.
        with pytest.raises(ServiceError) as e:
            await b.lifecycle.find("nosuchtable", live=True)
        assert e.value.status == 404


@pytest.mark.parametrize("kind", DBS)
def test_a_live_owner_hands_its_table_over(kind: str, tmp_path: Path) -> None:
    asyncio.run(_adopt_and_hand_over(db_url(kind, tmp_path)))


async def _lost_lease(db: str) -> None:
    # Long leases (tests.support.tables.service): the stall below is made by hand, so
    # the suite's load cannot make one run out before the table is made.
    a, b = service(db, "a"), service(db, "b")
    await a.start()
    await b.start()
    try:
        tid = await started_table(a)
        t = a.tables[tid]
        assert t.state is not None
        # a stalls past its lease (as if stopped): it may not write, and b adopts.
        await a.owners.stop()
        a.owners._valid_until = 0.0
        await a.run_db(a.owners.store.release)
        with pytest.raises(NotStored):  # an automatic move: the scheduler plans it again
            await a.play.apply(
                t, t.state.current_player(), next(iter(t.state.legal_actions())), "bot"
            )
        assert t.seq == 1 and a.repo.writer.appended == 0
        moved = await b.lifecycle.find(tid, live=True)
        assert moved.seq == 1
        # a wakes up: its heartbeat finds the lease gone, lets go, takes a new one.
        a.owners.start(
            lost=a.lifecycle.lease_lost, regained=a.lifecycle.resume, asked=a.lifecycle.hand_over
        )
        deadline = time.monotonic() + margin(10)
        while a.owners.lost == 0 or not a.owners.valid():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert tid not in a.tables and tid in b.tables
    finally:
        await a.stop()
        await b.stop()


@pytest.mark.parametrize("kind", DBS)
def test_a_process_that_lost_its_lease_lets_go_and_writes_nothing(
    kind: str, tmp_path: Path
) -> None:
    asyncio.run(_lost_lease(db_url(kind, tmp_path)))


async def _bot_move_not_stored(db: str) -> None:
    """A bot's move that cannot be stored now (no valid lease for a while, then the
    database failing once) is planned again and stored: the bot's own move, not the
    heuristic's stand-in, and the table goes on (before, it waited for ever)."""
    a = service(db, "a")  # a long lease: only the blocks below make it fail
    await a.start()
    try:
        from pitch.server.kernel.schemas import CreateTable

        body = CreateTable(
            rules={"players": 2},
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            options={"bot_delay": 0.0},
        )
        t = await a.lifecycle.create(body, "client")
        _open(a, t)
        valid, append = a.owners.valid, a.commits.append
        blocked = {"valid": 3, "append": 1}

        def bots_turn() -> bool:
            return t.state is not None and t.state.current_player() == 1

        def flaky_valid() -> bool:
            if blocked["valid"] and bots_turn():
                blocked["valid"] -= 1
                return False
            return valid()

        async def flaky_append(x: Append) -> None:
            if blocked["append"] and not blocked["valid"] and bots_turn():
                blocked["append"] -= 1
                raise OSError("the database went away")
            await append(x)

        a.owners.valid = flaky_valid  # type: ignore[method-assign]
        a.commits.append = flaky_append  # type: ignore[method-assign]
        chosen: list[int] = []
        choose = a.bots.choose

        async def recording(spec: str, view: PlayerView, table: str, keys: Any = ()) -> int:
            chosen.append(await choose(spec, view, table, keys))
            return chosen[-1]

        a.bots.choose = recording  # type: ignore[method-assign]
        await a.seats.claim(t.id, 0, "ann")  # the game starts; the dealer's left bids
        deadline = time.monotonic() + margin(20)

        def bot_moved() -> bool:  # since the blocks ran out
            return t.last is not None and t.last["seat"] == 1

        while blocked != {"valid": 0, "append": 0} or not bot_moved():
            await _human_turn(a, t)
            assert time.monotonic() < deadline, (blocked, t.seq)
            await asyncio.sleep(0.05)
        stored = a.repo.load(t.id)
        assert stored is not None
        bot_moves = [e.action for e in stored.events if e.kind == "action" and e.seat == 1]
        assert bot_moves and bot_moves == chosen[-len(bot_moves) :]
    finally:
        await a.stop()


@pytest.mark.parametrize("kind", DBS)
def test_a_bot_move_that_could_not_be_stored_is_played_again(kind: str, tmp_path: Path) -> None:
    asyncio.run(_bot_move_not_stored(db_url(kind, tmp_path)))


async def _human_turn(a: TableService, t: LiveTable) -> None:
    """Seat 0's move, if it is its turn: the lowest legal action, as a player would."""
    st = t.state
    if st is not None and st.current_player() == 0:
        async with t.lock:
            if t.state is st:
                await a.play.apply(t, 0, min(st.legal_actions()), "player")


@contextlib.asynccontextmanager
async def _running(db: str, instance: str = "a", **settings: Any) -> AsyncIterator[TableService]:
    """A started table service as process ``instance`` on ``db`` (stopped on the way
    out)."""
    a = service(db, instance, **settings)
    await a.start()
    try:
        yield a
    finally:
        await a.stop()


def _open(a: TableService, t: LiveTable) -> None:
    """Someone opens the table (a spectator's socket, as ``Connections`` adds it): a
    table's bots and timers move only while someone has it open."""
    t.spectators.add(_Socket(None))  # type: ignore[arg-type]
    a.scheduler.opened(t)


class _FailsOnce:
    """``fn`` that raises OSError on its first call: before running it (the database
    away), or with ``after`` once it has run (stored, but the answer lost)."""

    def __init__(self, fn: Callable[..., Any], *, after: bool = False) -> None:
        self.fn, self.after, self.failed = fn, after, False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.failed:
            return self.fn(*args, **kwargs)
        self.failed = True
        if self.after:
            self.fn(*args, **kwargs)
            raise OSError("the connection dropped after the commit")
        raise OSError("the database went away")


async def _quick_table(a: TableService) -> LiveTable:
    """A new quick-play table (2 seats, to 21) with Ann in seat 0, a bot in seat 1,
    whose arrivals fail once (:class:`_FailsOnce`)."""
    from pitch.server.kernel.schemas import QuickPlay

    tid = await a.quick.table(QuickPlay(rules={"players": 2, "target": 21}), "client")
    await a.quick.seat(tid, "ann")
    a.quick.store.arrive = _FailsOnce(a.quick.store.arrive)  # type: ignore[method-assign]
    t = await a.lifecycle.find(tid, live=True)
    _open(a, t)
    return t


async def _stored_though_it_failed(db: str, who: str) -> None:
    """A write that went through though its answer was lost (the connection dropped
    after the commit): the table is rebuilt from the store, with the move, and goes on
    from it: the next bot moves (before, nobody planned it and the table stood still)."""
    async with _running(db) as a:
        from pitch.server.kernel.schemas import CreateTable

        bot = {"kind": "bot", "bot": "random"}
        body = CreateTable(
            rules={"players": 3},
            seats=[{"kind": "human"}, bot, bot],
            options={"bot_delay": 0.0},
        )
        t = await a.lifecycle.create(body, "client")
        _open(a, t)
        append = a.commits.append
        failed: list[Append] = []

        def bot_next(x: Append) -> bool:
            """A bot's turn after this move (only the scheduler would make it)."""
            st = t.state
            assert st is not None and x.events[0].action is not None
            st = st.copy()
            st.apply(x.events[0].action)
            return not st.is_terminal() and st.current_player() != 0

        async def lost_answer(x: Append) -> None:
            await append(x)
            if not failed and x.events[0].by == who and bot_next(x):
                failed.append(x)
                raise OSError("the connection dropped after the commit")

        a.commits.append = lost_answer  # type: ignore[method-assign]
        await a.seats.claim(t.id, 0, "ann")  # the game starts; the dealer's left bids
        deadline = time.monotonic() + margin(20)
        while not failed or t.seq < failed[0].seq + len(failed[0].events) + 3:
            st = t.state
            assert st is not None and st.winner is None
            await _human_turn(a, t)
            assert time.monotonic() < deadline, (failed, t.seq)
            await asyncio.sleep(0.02)
        stored = a.repo.load(t.id)
        assert stored is not None
        f = failed[0]
        assert stored.events[f.seq] == f.events[0]  # stored as made, and the game went on
        assert t.seq <= len(stored.events)  # memory never ahead of the store


@pytest.mark.parametrize("who", ["bot", "player"])
@pytest.mark.parametrize("kind", DBS)
def test_a_move_stored_though_its_commit_failed_goes_on(
    kind: str, who: str, tmp_path: Path
) -> None:
    asyncio.run(_stored_though_it_failed(db_url(kind, tmp_path), who))


async def _arrival_not_stored(db: str) -> None:
    """A stranger's quick-play seat whose arrival cannot be stored at the deal (the
    database fails once): the bot plays on, the stranger sits down at the next hand
    (before, the dealt hand stood still: nobody planned its first move)."""
    async with _running(db, quick_bot_delay=0.0) as a:
        t = await _quick_table(a)
        tid = t.id
        deadline = time.monotonic() + margin(30)
        bob_pending = False
        while t.seats[1].kind != "human":
            st = t.state
            assert st is not None and st.winner is None
            if not bob_pending and st.bids:  # the hand is under way: Bob must wait
                seat, _, bob_pending = await a.quick.seat(tid, "bob")
                assert seat == 1 and bob_pending
            await _human_turn(a, t)
            assert time.monotonic() < deadline, (t.seq, st.phase)
            await asyncio.sleep(0.02)
        assert a.quick.store.arrive.failed  # type: ignore[attr-defined]  # at the first deal
        assert t.state is not None and len(t.state.history) >= 2  # Bob's at the second


@pytest.mark.parametrize("kind", DBS)
def test_an_arrival_that_could_not_be_stored_waits_a_hand(kind: str, tmp_path: Path) -> None:
    asyncio.run(_arrival_not_stored(db_url(kind, tmp_path)))


class _Socket:
    """What ``Play.act`` needs of a connection: its seat, and what it was sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.spectator = seat is None
        self.waiting: int | None = None  # not a quick-play stranger waiting for the deal
        self.client = "test"  # whose turn its table's bot work waits in (BotPool)
        self.sent: list[dict[str, object]] = []

    def send(self, msg: dict[str, object]) -> None:
        self.sent.append(msg)

    def send_text(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


async def _database_away(db: str) -> None:
    """The database is away: a player's move cannot be stored, nor the table read back.
    The player is told `server_busy` and the table stays as stored (before, the error
    left the socket's loop and the player was cut off)."""
    from pitch.server.tables.protocol import Act

    async with _running(db) as a:
        tid = await started_table(a)
        t = await a.lifecycle.find(tid, live=True)
        assert t.state is not None
        seat, seq = t.state.current_player(), t.seq
        load = a.repo.load

        async def away(x: Append) -> None:
            raise OSError("connection refused")

        def load_away(*args: object, **kwargs: object) -> None:
            raise OSError("connection refused")

        a.commits.append = away  # type: ignore[method-assign]
        a.repo.load = load_away  # type: ignore[method-assign]
        sock = _Socket(seat)
        action = min(t.state.legal_actions())
        await a.play.act(t, sock, Act(type="action", action=action))  # type: ignore[arg-type]
        assert [m["code"] for m in sock.sent] == ["server_busy"]
        assert t.seq == seq and not t.lock.locked()
        a.repo.load = load  # type: ignore[method-assign]


@pytest.mark.parametrize("kind", DBS)
def test_a_player_is_told_server_busy_while_the_database_is_away(kind: str, tmp_path: Path) -> None:
    asyncio.run(_database_away(db_url(kind, tmp_path)))


async def _quick_seat_arrival_fails(db: str) -> None:
    """A stranger takes a quick-play seat between hands, and storing that it is theirs
    fails: they get their token and wait a hand, as if they had come mid-hand (before:
    a server error, no token, and a seat nobody could ever use)."""
    async with _running(db, quick_bot_delay=5.0) as a:  # nobody bids before Bob comes
        t = await _quick_table(a)
        assert t.state is not None and not t.state.bids
        seat, token, waiting = await a.quick.seat(t.id, "bob")
        assert seat == 1 and token and waiting and a.quick.store.arrive.failed  # type: ignore[attr-defined]
        assert t.seats[1].pending and t.seats[1].kind == "bot"


@pytest.mark.parametrize("kind", DBS)
def test_a_quick_seat_whose_arrival_fails_waits_a_hand(kind: str, tmp_path: Path) -> None:
    asyncio.run(_quick_seat_arrival_fails(db_url(kind, tmp_path)))


async def _let_go_plans_nothing(db: str) -> None:
    """A table this process let go (its lease lost, or handed over) gets no more
    timers, whoever asks: a commit that lands just after, a socket joining late.
    Another process, or a later load here, plays it (before, both could)."""
    from pitch.server.kernel.schemas import CreateTable

    async with _running(db) as a:
        body = CreateTable(
            rules={"players": 2},
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            options={"bot_delay": 10.0, "turn_seconds": 60.0},
        )
        t = await a.lifecycle.create(body, "client")
        _open(a, t)
        await a.seats.claim(t.id, 0, "ann")
        assert t.timer is not None  # a bot's move or the turn timer: always one here
        a.lifecycle.let_go(t)
        assert t.timer is None
        a.scheduler.schedule(t)
        assert t.timer is None


def test_a_table_let_go_gets_no_timer(tmp_path: Path) -> None:
    asyncio.run(_let_go_plans_nothing(db_url("sqlite", tmp_path)))


async def _resume_past_a_failed_read(db: str) -> None:
    """Bringing back this process's tables (at start, or when its lease comes back)
    goes past a table whose read fails: the others are live and planned (before, the
    first failure ended the loop and left the rest unplanned)."""
    async with _running(db) as a:
        first, second = await started_table(a), await started_table(a)
    b = service(db, "a")  # the same process, restarted
    load = b.repo.load

    def flaky_load(table_id: str) -> object:
        if table_id == first:
            raise OSError("the database went away")
        return load(table_id)

    b.repo.load = flaky_load  # type: ignore[method-assign,assignment]
    await b.start()
    try:
        assert first not in b.tables and second in b.tables
    finally:
        await b.stop()


def test_resuming_goes_past_a_table_that_cannot_be_read(tmp_path: Path) -> None:
    asyncio.run(_resume_past_a_failed_read(db_url("sqlite", tmp_path)))


async def _gone_meanwhile(db: str) -> None:
    """A bot's move cannot be stored because the table is gone from the store (its
    last player left and it was deleted): the table is let go, not tried again every
    second for ever (a bot decision each time)."""
    from pitch.server.kernel.schemas import CreateTable

    async with _running(db) as a:
        body = CreateTable(
            rules={"players": 2},
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            options={"bot_delay": 0.3},
        )
        t = await a.lifecycle.create(body, "client")
        _open(a, t)
        asked: list[str] = []

        async def counting(spec: str, view: PlayerView, table: str, keys: Any = ()) -> int:
            asked.append(table)
            return fallback(view)  # at once: no worker process to wait for

        async def gone(x: Append) -> None:
            raise OSError("no such table")

        a.bots.choose = counting  # type: ignore[method-assign]
        await a.seats.claim(t.id, 0, "ann")
        st = t.state
        assert st is not None
        if st.current_player() == 0:  # the human bids first: then it is the bot's turn
            async with t.lock:
                await a.play.apply(t, 0, min(st.legal_actions()), "player")
        # Gone from the store now, before the bot's move (0.3 s away) is made.
        a.commits.append = gone  # type: ignore[method-assign]
        a.repo.load = lambda table_id: None  # type: ignore[method-assign,assignment,return-value]
        deadline = time.monotonic() + margin(20)
        while t.id in a.tables:  # the bot's move fails, and the table is let go
            assert time.monotonic() < deadline, asked
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.5)  # a retry would come a second after the failure
        assert len(asked) == 1


def test_a_table_gone_from_the_store_is_let_go(tmp_path: Path) -> None:
    asyncio.run(_gone_meanwhile(db_url("sqlite", tmp_path)))


async def _claim_answer_lost(db: str) -> None:
    """The claim that fills a table is stored, but its answer is lost (the database
    connection drops after the commit). The claimant is told to try again (503), and
    the table is read back from the store on its next use, with its game under way
    (before, memory said it was still waiting for a player: it never started)."""
    from pitch.server.kernel.errors import ServiceError

    async with _running(db) as a:
        from pitch.server.kernel.schemas import CreateTable

        t = await a.lifecycle.create(CreateTable(rules={"players": 2}), "client")
        await a.seats.claim(t.id, 0, "ann")
        a.repo.claim = _FailsOnce(a.repo.claim, after=True)  # type: ignore[method-assign]
        with pytest.raises(ServiceError) as e:
            await a.seats.claim(t.id, 1, "bob")
        assert e.value.status == 503 and t.id not in a.tables
        again = await a.lifecycle.find(t.id, live=True)
        assert again.status == "playing" and again.state is not None
        assert [s.name for s in again.seats] == ["ann", "bob"]


@pytest.mark.parametrize("kind", DBS)
def test_a_claim_whose_answer_was_lost_is_read_back(kind: str, tmp_path: Path) -> None:
    asyncio.run(_claim_answer_lost(db_url(kind, tmp_path)))


async def _chat_answer_lost(db: str) -> None:
    """A chat line is stored but the answer is lost (the connection drops after the
    commit): it is sent to the table as said, and the lines after it are stored too
    (before, its number was used again and every later line failed)."""
    import json

    from pitch.server.tables.live import Conn
    from pitch.server.tables.protocol import Chat

    async with _running(db) as a:
        tid = await started_table(a)
        t = await a.lifecycle.find(tid, live=True)
        conn = Conn(None, rate=100.0, burst=100, queue=100)  # type: ignore[arg-type]
        conn.seat = 0
        a.repo.add_chat = _FailsOnce(a.repo.add_chat, after=True)  # type: ignore[method-assign]
        t.seats[0].conns.add(conn)
        for _ in range(3):
            await a.conns._chat(t, conn, Chat(type="chat", phrase=0))
        sent = [json.loads(x) for x in conn._queue]
        assert [m["type"] for m in sent] == ["chat"] * 3
        stored = a.repo.load(tid)
        assert stored is not None and stored.chat_count == 3 and t.chat_count == 3
        t.seats[0].conns.discard(conn)


@pytest.mark.parametrize("kind", DBS)
def test_a_chat_line_whose_answer_was_lost_is_not_numbered_again(kind: str, tmp_path: Path) -> None:
    asyncio.run(_chat_answer_lost(db_url(kind, tmp_path)))


async def _read_again(db: str) -> None:
    """A process that only reads a table another one plays (behind a proxy) reads it
    again after a second: only the events it does not hold yet, so a long game does not
    cost a full replay on every read; and it sees the same game as the player's."""
    from pitch.engine import game_record

    async with _running(db) as a, _running(db, "b") as b:
        tid = await started_table(a)
        t = await a.lifecycle.find(tid, live=True)
        asked: list[int] = []
        load = b.repo.load

        def counting(table_id: str, since: int = 0) -> Any:
            asked.append(since)
            return load(table_id, since)

        b.repo.load = counting  # type: ignore[method-assign]
        for _ in range(3):
            for _ in range(5):
                await _human_turn(a, t)  # seat 0's moves, and seat 1's
                st = t.state
                assert st is not None
                if st.current_player() == 1:
                    async with t.lock:
                        await a.play.apply(t, 1, min(st.legal_actions()), "player")
            seen = await b.lifecycle.find(tid)
            assert seen.seq == t.seq and seen.state is not None and t.state is not None
            assert game_record(seen.state) == game_record(t.state)  # the same game
            await asyncio.sleep(1.05)  # the copy is read again after a second
        assert asked[0] == 0 and all(0 < n < t.seq for n in asked[1:]), asked


@pytest.mark.parametrize("kind", DBS)
def test_a_reader_reads_only_the_new_events(kind: str, tmp_path: Path) -> None:
    asyncio.run(_read_again(db_url(kind, tmp_path)))
