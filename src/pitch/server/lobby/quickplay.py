"""Quick play: one button seats a player at a game with the rules they picked.

``POST /api/quickplay`` looks in the store for an active quick-play table with those
rules and a bot seat of the chosen level that nobody has claimed (any process's
table: :class:`pitch.store.OpenSeats` reads the database), a game nobody has bid in
first, then one between hands, then one in mid-hand, and names it. The player
claims it with ``POST /api/tables/{id}/quickseat`` (which a proxy routes to the process
serving the table, as every table path; a 409 there means someone was quicker: ask
again, avoiding that table). The bot plays on until the hand in play ends (a hand is
never taken over half played, so nobody inherits a bid they did not make), then the
seat is theirs. Before the first bid of a hand the seat is theirs at once. With no such
table, it starts one: seat 1 left for the player, bots of the chosen level in the
others, open to the next strangers.

A signed-in player is never offered a table where someone sits whom they blocked or who
blocked them, and a rated game is matched by rating (:mod:`~pitch.server.lobby.matching`):
the nearest first, within a window that widens while the table waits for a stranger.

Quick-play tables are for strangers, so they carry the options that keep a table
going without anyone's goodwill: a turn timer, a stand-in for players who go away,
and quick phrases only in the chat.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime

from pitch.bots.registry import levels
from pitch.engine import BID, Rules
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.events import Bus
from pitch.server.kernel.schemas import CreateTable, Joined, QuickPlay, TableOptions, check_bot_spec
from pitch.server.kernel.text import NAME_LIMIT, distinct_name
from pitch.server.lobby.matching import Blocked, OpenTable, Ratings, accounts_of, no_blocks, ranked
from pitch.server.realtime.connections import welcome
from pitch.server.tables.events import HandDealt, TableChanged, table_kind
from pitch.server.tables.fanout import broadcast
from pitch.server.tables.lifecycle import Lifecycle, build_rules, check_rated
from pitch.server.tables.live import LiveTable, Seat, hash_token, is_open, names_at
from pitch.server.tables.seats import SeatClaims, checked_name
from pitch.server.tables.store import RunDb
from pitch.store import OpenSeats, StaleWrite, TableRepo

log = logging.getLogger("pitch.server")

TURN_SECONDS = 60.0
"""Quick-play turn timer: a stranger who dawdles is played for, one move at a time."""
CANDIDATES = 20
"""Open tables a signed-in player's quick play weighs (by blocks and rating)."""
GRACE_SECONDS = 30.0
"""A stranger gone this long is played for by the stand-in until back."""


def quick_options(spec: str, bot_delay: float, *, rated: bool = False) -> TableOptions:
    return TableOptions(
        quick=True,
        rated=rated,
        bot_delay=bot_delay,
        turn_seconds=TURN_SECONDS,
        grace_seconds=GRACE_SECONDS,
        substitute=spec,
        chat="phrases",
    )


class QuickSeats:
    def __init__(
        self,
        repo: TableRepo,
        run_db: RunDb,
        lifecycle: Lifecycle,
        seats: SeatClaims,
        bus: Bus,
        *,
        rules: Rules,
        bot_delay: float,
        ratings: Ratings,
        blocked: Blocked = no_blocks,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = OpenSeats(repo)
        self.ratings = ratings
        self.blocked = blocked
        self.clock = clock
        self.run_db = run_db
        self.lifecycle = lifecycle
        self.seats = seats
        self.bus = bus
        self.rules = rules
        self.bot_delay = bot_delay
        quick_options("random", self.bot_delay)  # a bad PITCH_QUICK_BOT_DELAY stops start-up

    async def table(self, req: QuickPlay, creator: str, account: int | None = None) -> str:
        """The quick-play table for ``req``: an active one with an open seat, or a new
        one (seat 1 free for the asker, bots in the others). Nothing is claimed here:
        the player takes the seat with :meth:`seat`, at the process that serves the
        table (behind the proxy, ``/api/tables/{id}/...`` goes there). For a signed-in
        ``account``: no table with a block between them and a player there, and a rated
        game by rating (:func:`~pitch.server.lobby.matching.ranked`)."""
        rules = build_rules(CreateTable(preset=req.preset, rules=req.rules), self.rules)
        spec = check_bot_spec(next(lv.spec for lv in levels() if lv.level == req.level))
        options = quick_options(spec, self.bot_delay, rated=req.rated)
        check_rated(rules, options)
        found = await self.run_db(
            self.store.find,
            rules.to_dict(),
            spec,
            avoid=set(req.avoid),
            limit=1 if account is None else CANDIDATES,
            rated=req.rated,
        )
        if found and account is not None:
            kind = table_kind(rules.players, rules.partnerships) if req.rated else None
            found = await self.run_db(self.match, found, account, kind)
        if found:
            return found[0]
        seats = [Seat.fresh("human", None)] + [
            Seat.fresh("bot", spec) for _ in range(rules.players - 1)
        ]
        t = await self.lifecycle.create_table(rules, options, seats, creator)
        return t.id

    def match(self, found: list[str], account: int, kind: str | None) -> list[str]:
        """``found`` as ``account`` is offered them (in the database's threads): none
        with a block, and for a rated game of ``kind`` by rating."""
        people = self.store.people(found)
        tables = [OpenTable(tid, *people[tid]) for tid in found if tid in people]
        blocked = set(self.blocked(account))
        if kind is None:  # a casual game: blocks only, in the store's order
            return [t.table_id for t in tables if not (t.accounts & blocked)]
        ratings = self.ratings(accounts_of(tables) | {account}, kind)
        return ranked(
            tables,
            me=account,
            mine=ratings[account],
            ratings=ratings,
            blocked=blocked,
            now=self.clock(),
        )

    def blocks_at(self, table_id: str, account: int) -> bool:
        """Whether someone at ``table_id`` blocks ``account`` or is blocked by it."""
        held = self.store.people([table_id]).get(table_id)
        return held is not None and bool(held[1] & set(self.blocked(account)))

    async def seat(
        self, table_id: str, name: str, *, prefer: int | None = None, account: int | None = None
    ) -> tuple[int, str, Joined]:
        """Seat ``name`` at a quick-play table: its free human seat (a table quick play
        just made), else open bot seat ``prefer`` (a player's own seat at a rematch)
        if it is open, else the first open bot seat. Answer: seat, token, and where in
        the game (``mid-hand``: a bot plays the seat until the hand in play ends). A
        signed-in ``account`` is not seated beside someone it blocks or who blocks it
        (409 ``no_open_seat``, as for a full table: nothing says who is there)."""
        t = await self.lifecycle.find(table_id, live=True)
        if not t.options.quick:
            raise ServiceError(409, "this table is not open to quick play", "not_quick")
        if account is not None and await self.run_db(self.blocks_at, table_id, account):
            raise ServiceError(409, "no open seat at this table", "no_open_seat")
        free = next((i for i, s in enumerate(t.seats) if s.kind == "human" and not s.claimed), None)
        if free is not None:  # the claim checks the name, as any claim does
            return free, await self.seats.claim(table_id, free, name, renumber=True), "new"
        name = checked_name(name)
        async with t.lock:
            open_seats = [i for i, s in enumerate(t.seats) if is_open(t, s)]
            seat = prefer if prefer in open_seats else next(iter(open_seats), None)
            if seat is None or t.status != "playing":
                raise ServiceError(409, "no open seat at this table", "no_open_seat")
            # A stranger did not choose the table: a name taken there gets a number.
            name = distinct_name(name, names_at(t, seat), NAME_LIMIT)
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            try:
                await self.lifecycle.write_seats(
                    t, self.store.take, t.id, seat, name=name, token_hash=th
                )
            except StaleWrite:
                raise ServiceError(409, f"seat {seat} is taken", "seat_taken", seat=seat) from None
            s = t.seats[seat]
            s.name, s.token_hash = name, th
            joined: Joined = "mid-hand"
            if between_hands(t):
                assert t.state is not None
                joined = "between" if t.state.history else "fresh"
                await self.arrive(t)
            if s.pending:  # mid-hand, or the store failed it: the bot plays on, they watch
                joined = "mid-hand"
            broadcast(t)
            return seat, token, joined

    async def arrive(self, t: LiveTable) -> None:
        """Between hands, under ``t.lock``: claimed bot seats become their claimants'.
        The bot's spec stays on the seat for the record (``Bot 2 (club), then Ann``)."""
        for i, s in enumerate(t.seats):
            if not s.pending:
                continue
            try:
                await self.run_db(self.store.arrive, t.id, i)
            except StaleWrite:  # the table went to another process: it seats them later
                return
            except Exception:  # the database failed: the bot plays on, they sit down
                log.exception("could not seat an arrival at table %s", t.id)  # next deal
                break
            s.kind = "human"
            s.away_since = time.monotonic()
            for c in [c for c in t.spectators if c.waiting == i]:
                t.spectators.discard(c)
                c.spectator, c.waiting, c.seat = False, None, i
                s.conns.add(c)
                s.away_since = None
                c.send(welcome(t, i))
        await self.bus.publish(TableChanged(t))

    async def hand_dealt(self, e: HandDealt) -> None:
        """A new hand: strangers waiting for a bot's seat take it (:meth:`arrive`)."""
        if any(x.pending for x in e.table.seats):
            await self.arrive(e.table)


def between_hands(t: LiveTable) -> bool:
    """Nobody has bid yet in the hand in play (its cards are dealt, nothing decided)."""
    st = t.state
    return st is not None and st.phase == BID and not st.bids
