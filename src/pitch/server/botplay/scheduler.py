"""Moves nobody at a keyboard makes (a bot's turn, an absent human's stand-in, the
turn timer running out), and hints: both ask the bot worker pool."""

from __future__ import annotations

import asyncio
import logging
import time

from pitch.bots.explain import explain
from pitch.engine import TERMINAL, PlayerView, action_str
from pitch.server.botplay.workers import BotPool, fallback
from pitch.server.tables.events import TableChanged
from pitch.server.tables.live import Conn, LiveTable
from pitch.server.tables.play import NotStored, Play, check_turn
from pitch.server.tables.protocol import error

log = logging.getLogger("pitch.server")


class Scheduler:
    def __init__(
        self,
        tables: dict[str, LiveTable],
        bots: BotPool,
        play: Play,
        *,
        hint_bot: str,
        min_bot_delay: float,
    ) -> None:
        self.tables = tables
        """The live tables (``Lifecycle.tables``): a table let go is not played here."""
        self.bots = bots
        self.play = play
        self.hint_bot = hint_bot
        self.min_bot_delay = min_bot_delay

    def schedule(self, t: LiveTable) -> None:
        """(Re)plan the next move nobody at a keyboard makes: a bot's turn, an absent
        human's substitute after the grace period, or the turn timer running out.

        Only while someone has the table open (a player or a spectator): a table
        nobody has open waits where it is, and goes on when someone comes back
        (:meth:`opened`). Otherwise a client could claim seats at many tables, close
        its sockets (or leave one seat of each) and keep the bot workers playing
        games nobody is at, for ever at a high target."""
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current:
            t.timer.cancel()
        t.timer = None
        t.turn_deadline = None
        st = t.state
        if st is None or t.status == "over" or self.tables.get(t.id) is not t:
            return  # over, or let go (another process or a later load plays it)
        if not t.watched():
            return  # nobody has it open: it waits
        seat = st.current_player()
        if seat == TERMINAL or seat < 0:
            return
        s = t.seats[seat]
        o = t.options
        now = time.monotonic()
        due: float | None = None
        by = ""
        spec = o.substitute
        pace = max(o.bot_delay, self.min_bot_delay)
        if s.kind == "bot":
            due, by, spec = now + pace, "bot", s.bot or "random"
        else:
            if o.grace_seconds is not None and not s.conns and s.away_since is not None:
                due, by = max(s.away_since + o.grace_seconds, now + pace), "substitute"
            if o.turn_seconds is not None:
                d = t.turn_started + o.turn_seconds
                t.turn_deadline = time.time() + (d - now)
                if due is None or d < due:
                    due, by = d, "timer"
        if due is not None:
            t.timer = asyncio.create_task(self._auto(t, t.seq, seat, due, by, spec))

    async def table_changed(self, e: TableChanged) -> None:
        self.schedule(e.table)

    def opened(self, t: LiveTable) -> None:
        """Someone opened a table nobody had open: it goes on. The turn's clock starts
        again, as the turn timer did not run while the table waited."""
        t.turn_started = time.monotonic()
        self.schedule(t)

    async def _auto(
        self, t: LiveTable, seq: int, seat: int, due: float, by: str, spec: str
    ) -> None:
        """Make the move nobody at a keyboard makes. The bot pool answers with a legal
        move whatever the bot does (the heuristic's when it fails); should anything
        else go wrong (the move not stored: no valid lease, a database failure), the
        move is planned again a second later, so a table never stalls."""
        try:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            st = t.state
            if st is None or t.seq != seq:
                return
            view = st.view(seat)
            action = await self.bots.choose(spec, view, t.id, keys=t.keepers())
            async with t.lock:
                if t.seq != seq:  # a human acted meanwhile
                    return
                t.timer = None
                await self.play.apply(t, seat, action, by)
                if t.seq == seq:  # not applied (an engine refusal): play the heuristic's
                    log.error("bot %s at table %s: move %s refused", spec, t.id, action)
                    await self.play.apply(t, seat, fallback(view), by)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            if self.tables.get(t.id) is not t:
                return  # let go meanwhile (another process serves it now)
            if isinstance(e, NotStored):
                log.warning("automatic move not stored (%s); trying again", e)
            else:
                log.exception("automatic move failed at table %s; trying again", t.id)
            if t.timer is None or t.timer is asyncio.current_task():
                t.timer = asyncio.create_task(
                    self._auto(t, seq, seat, time.monotonic() + 1.0, by, spec)
                )

    def hint(self, t: LiveTable, conn: Conn) -> None:
        """Answer the asker alone with what the hint bot would play from its seat's own
        view (never the full state). The bot runs in the worker pool, in a task of its
        own so the player may still act meanwhile. One hint at a time per seat (over all
        its connections), and only the seat on turn may ask: at most one hint per table
        is in the workers at a time, so hints cannot crowd out bot seats."""
        assert conn.seat is not None
        if any(
            c.hint_task is not None and not c.hint_task.done() for c in t.seats[conn.seat].conns
        ):
            conn.send(error("hint_busy"))
            return
        err = check_turn(t, conn.seat, None)
        if err is not None:
            conn.send(err)
            return
        assert t.state is not None
        conn.hint_task = asyncio.create_task(
            self._answer_hint(t, conn, t.seq, t.state.view(conn.seat))
        )

    async def _answer_hint(self, t: LiveTable, conn: Conn, seq: int, view: PlayerView) -> None:
        spec = self.hint_bot
        try:
            advice = await self.bots.suggest(spec, view, t.id, advise=True, keys=[conn.client])
        except Exception:
            log.exception("hint failed at table %s", t.id)
            advice = None
        if t.seq != seq:
            return  # the turn passed while the bot thought: the answer is moot
        if advice is None:
            conn.send(error("hint_failed"))
            return
        why = explain(view, advice.action)
        ev = advice.evidence
        conn.send(
            {
                "type": "hint",
                "action": action_str(advice.action),
                "bot": spec,
                "seq": seq,
                "why": why.to_json(),
                "evidence": ev.line().to_json() if ev is not None else None,
            }
        )
