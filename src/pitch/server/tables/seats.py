"""Seat claims: taking an open human seat, and leaving one (freed or resigned).

Quick play's seats (bot seats that strangers take over) are in :mod:`quickplay`.
"""

from __future__ import annotations

import secrets
import time

from pitch.engine import GameState
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.events import Bus
from pitch.server.kernel.schemas import LeftTable
from pitch.server.kernel.text import (
    NAME_LIMIT,
    TextRefused,
    bot_like,
    check_name,
    distinct_name,
    same_name,
)
from pitch.server.tables.events import TableChanged, game_finished
from pitch.server.tables.fanout import broadcast
from pitch.server.tables.lifecycle import Lifecycle
from pitch.server.tables.live import RESIGN, LiveTable, deal_if_needed, hash_token, names_at
from pitch.store import EventRow, OpenSeats, StaleWrite, TableRepo


def checked_name(name: str) -> str:
    """``name`` as a seat keeps it (:func:`pitch.server.kernel.text.check_name`: normalised,
    no invisible characters, no look-alikes, at most 32 characters), else refused
    (``bad_name``, with the ``reason``). A person may not go by a bot's name, nor one
    that looks like it: the table, its log and its record would pass them off as a bot
    (and a bot as them)."""
    try:
        name = check_name(name)
    except TextRefused as e:
        raise ServiceError(422, e.message, "bad_name", reason=e.reason, **e.extra) from None
    if bot_like(name):
        raise ServiceError(422, f"{name!r} reads as a bot's name", "name_reserved")
    return name


class SeatClaims:
    def __init__(self, repo: TableRepo, lifecycle: Lifecycle, bus: Bus) -> None:
        self.repo = repo
        self.open_seats = OpenSeats(repo)
        self.lifecycle = lifecycle
        self.bus = bus

    async def claim(self, table_id: str, seat: int, name: str, *, renumber: bool = False) -> str:
        """Take the open human ``seat`` under ``name``; the answer is its token. The
        claim that fills the table starts the game (its first deal). A name another
        seat goes by is refused, or with ``renumber`` (quick play, where the player did
        not choose the table) given a number (:func:`distinct_name`); so is one that
        looks like it (``ΑΝΝ`` in Greek capitals next to ``Ann``)."""
        name = checked_name(name)
        t = await self.lifecycle.find(table_id, live=True)
        if not 0 <= seat < len(t.seats):
            raise ServiceError(404, f"R1.3: seats are 0..{len(t.seats) - 1}", "no_seat")
        async with t.lock:
            s = t.seats[seat]
            if s.kind != "human":
                raise ServiceError(409, f"seat {seat} is a bot's", "seat_is_bot", seat=seat)
            if s.token_hash is not None:
                raise ServiceError(409, f"seat {seat} is taken", "seat_taken", seat=seat)
            others = names_at(t, seat)
            if renumber:
                name = distinct_name(name, others, NAME_LIMIT)
            elif any(same_name(name, n) for n in others):
                # Two players of one name make the table's log and chat ambiguous.
                raise ServiceError(
                    409, f"someone at this table goes by {name!r} already", "name_taken"
                )
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            last = all(x.claimed or x is s for x in t.seats)
            start: EventRow | None = None
            # The game (if this seat completes the table) is built aside and becomes
            # visible only once stored: a broadcast meanwhile must not show it.
            state: GameState | None = None
            if last:
                state = GameState(t.rules, dealer=t.first_dealer)
                start = deal_if_needed(state)
            try:
                await self.lifecycle.write_seats(
                    t, self.repo.claim, t.id, seat, name=name, token_hash=th, start=start
                )
            except StaleWrite:
                raise ServiceError(409, f"seat {seat} is taken", "seat_taken", seat=seat) from None
            s.name, s.token_hash = name, th
            s.away_since = time.monotonic()
            if state is not None:
                t.state, t.seq, t.status = state, 1, "playing"
                t.turn_started = time.monotonic()
            broadcast(t)
            await self.bus.publish(TableChanged(t))
            return token

    async def leave(self, table_id: str, token: str, client: str) -> LeftTable:
        """The player whose seat ``token`` holds leaves the table: at a table still
        waiting for players the seat is open again; in a game under way they resign and
        the table's ``substitute`` bot plays the seat for good. Either way the table
        stops counting to ``client``'s unfinished tables if ``client`` created it. A
        waiting table where no player holds a seat any more is abandoned: deleted. A
        game whose last player resigns (everyone else is a bot) ends there instead,
        over with no winner, as at the hand limit: it is kept, with its record and
        replay, and the seat stays theirs, so that their page and My tables show it."""
        t = await self.lifecycle.find(table_id, live=True)
        async with t.lock:
            seat = next((i for i, s in enumerate(t.seats) if s.has_token(token)), None)
            if seat is None:
                raise ServiceError(403, "no seat at this table is held by that token")
            if t.status == "over":
                raise ServiceError(409, "the game is over: there is no seat to leave", "game_over")
            s = t.seats[seat]
            if s.pending:  # a quick-play claim that has not begun: simply withdrawn
                await self._withdraw(t, seat)
                broadcast(t)
                return LeftTable(table=t.id, seat=seat, left="freed", status="playing")
            resign = t.status == "playing"
            bot = t.options.substitute if resign else None
            # Ends the game if nobody else holds a seat (the store decides, in the same
            # transaction): a game of bots alone is not played on, nor thrown away.
            end = (t.seq, EventRow(kind=RESIGN, seat=seat)) if resign else None
            assert s.token_hash is not None
            try:
                outcome = await self.lifecycle.write_seats(
                    t,
                    self.repo.leave,
                    t.id,
                    seat,
                    token_hash=s.token_hash,
                    client=client,
                    bot=bot,
                    end=end,
                )
            except StaleWrite:
                raise ServiceError(
                    409, f"seat {seat} changed meanwhile; try again", "seat_changed", seat=seat
                ) from None
            if outcome == "over":
                t.status, t.resigned = "over", seat
                t.seq += 1
                t.idle_since = time.monotonic()
                if s.conns:  # a hint being worked out for the move nobody makes now
                    for c in s.conns:
                        if c.hint_task is not None:
                            c.hint_task.cancel()
                broadcast(t)
                await self.bus.publish(TableChanged(t))  # no more moves: clears the timer
                await self.bus.publish(game_finished(t))
                return LeftTable(table=t.id, seat=seat, left="resigned", status="over")
            abandoned = outcome == "abandoned"
            for c in list(s.conns):  # the player's other pages watch from now on
                if c.hint_task is not None:
                    c.hint_task.cancel()
                c.seat, c.spectator = None, True
                t.spectators.add(c)
            s.conns.clear()
            s.token_hash, s.away_since = None, None
            if resign:
                s.kind, s.bot = "bot", bot
            else:
                s.name = None
            if abandoned:
                self.lifecycle.abandon(t)
            else:
                t.idle_since = time.monotonic()
                broadcast(t)
                await self.bus.publish(TableChanged(t))
        status = "abandoned" if abandoned else t.status
        return LeftTable(
            table=t.id,
            seat=seat,
            left="resigned" if resign else "freed",
            status=status,  # type: ignore[arg-type]
        )

    async def _withdraw(self, t: LiveTable, seat: int) -> None:
        """The claimant of a bot seat (quick play) leaves before it was theirs (under
        ``t.lock``)."""
        s = t.seats[seat]
        assert s.token_hash is not None
        try:
            await self.lifecycle.write_seats(
                t, self.open_seats.drop, t.id, seat, token_hash=s.token_hash
            )
        except StaleWrite:
            raise ServiceError(
                409, f"seat {seat} changed meanwhile; try again", "seat_changed", seat=seat
            ) from None
        s.name, s.token_hash = None, None
        for c in t.spectators:
            if c.waiting == seat:
                c.waiting = None
