"""The play pipeline: an action is validated by the engine, committed to the store,
and only then broadcast.

Every change happens under the table's lock, in that order; if the commit fails the
table is rebuilt from the store, so memory never runs ahead of what is stored.
"""

from __future__ import annotations

import logging
import time

from pitch.engine import CHANCE, ActionParseError, IllegalActionError, PitchError, parse_action
from pitch.server.kernel.events import Bus
from pitch.server.tables.commits import GroupCommitter
from pitch.server.tables.events import HandDealt, TableChanged, game_finished
from pitch.server.tables.fanout import broadcast
from pitch.server.tables.lifecycle import Lifecycle
from pitch.server.tables.live import Conn, LiveTable, deal_if_needed
from pitch.server.tables.ownership import Lease
from pitch.server.tables.protocol import Act, error
from pitch.server.tables.store import RunDb
from pitch.server.tables.view_json import refusal_json
from pitch.store import Append, EventRow, TableRepo

log = logging.getLogger("pitch.server")


class NotStored(Exception):
    """An automatic move (a bot's, a substitute's, the turn timer's) that was legal but
    could not be stored now (no valid lease, or the database failed): the scheduler
    plans it again, where a player is told ``server_busy`` and tries again."""


def check_turn(t: LiveTable, seat: int, seq: int | None) -> dict[str, object] | None:
    """The ``error`` message if ``seat`` may not act now (at ``seq``, if given)."""
    st = t.state
    if st is None:
        return error("not_started")
    if st.is_terminal() or t.status == "over":  # won, or stopped at the hand limit
        return error("game_over")
    if seq is not None and seq != t.seq:
        return error("stale", seq=t.seq)
    if st.current_player() != seat:
        return error("not_your_turn", turn=st.current_player())
    return None


class Play:
    def __init__(
        self,
        repo: TableRepo,
        run_db: RunDb,
        commits: GroupCommitter,
        owners: Lease,
        lifecycle: Lifecycle,
        bus: Bus,
        *,
        max_hands: int,
    ) -> None:
        self.repo = repo
        self.run_db = run_db
        self.commits = commits
        self.owners = owners
        self.lifecycle = lifecycle
        self.bus = bus
        self.max_hands = max_hands

    async def act(self, t: LiveTable, conn: Conn, msg: Act) -> None:
        """A player's ``act`` message, from its seated connection."""
        assert conn.seat is not None
        if isinstance(msg.action, int):
            action = msg.action
        else:
            try:
                action = parse_action(msg.action)
            except ActionParseError as e:
                conn.send(error("bad_action", str(e)))
                return
        async with t.lock:
            err = check_turn(t, conn.seat, msg.seq)
            if err is not None:
                conn.send(err)
                return
            await self.apply(t, conn.seat, action, "player", conn)

    async def apply(
        self, t: LiveTable, seat: int, action: int, by: str, conn: Conn | None = None
    ) -> None:
        """Validate with the engine, commit, then broadcast. Call under ``t.lock``.

        The action is applied to a copy: until the commit returns, the table (and any
        broadcast that a connecting player triggers meanwhile) shows the stored state.
        A legal move that cannot be stored now is answered ``server_busy`` when a
        player made it (``by == "player"``) and raises :class:`NotStored` otherwise."""
        assert t.state is not None
        st = t.state.copy()
        try:
            st.apply(action)
        except IllegalActionError as e:
            if conn is not None:
                why = refusal_json(e.refusal)
                conn.send(error(e.rule, str(e), rule=e.rule, legal=list(e.legal), refusal=why))
            return
        except PitchError as e:
            if conn is not None:
                conn.send(error("bad_action", str(e)))
            return
        events = [EventRow(kind="action", seat=seat, action=action, by=by)]
        over = st.is_terminal()
        deal = None
        if not over and st.current_player() == CHANCE and len(st.history) >= self.max_hands:
            over = True  # the server's hand limit: the game stops here, with no winner
        else:
            deal = deal_if_needed(st)
        if deal is not None:
            events.append(deal)
        if not self.owners.valid():  # the store would refuse it too (owner): spare it
            if by != "player":
                raise NotStored(f"table {t.id}: this process holds no valid lease now")
            if conn is not None:
                conn.send(error("server_busy"))
            return
        try:
            await self.commits.append(
                Append(t.id, t.seq, events, "over" if over else "playing", st.winner)
            )
        except Exception as e:
            log.exception("could not store an action of table %s; rebuilding it", t.id)
            try:
                if await self._reload(t):
                    return  # it was stored after all, and the table has gone on from it
            except Exception:  # the database is away: the table stays as it was stored
                log.exception("could not rebuild table %s", t.id)
            if by != "player":
                raise NotStored(f"table {t.id}: {e}") from e
            if conn is not None:
                conn.send(error("server_busy"))
            return
        t.note_bid(t.state, seat, by)
        t.state = st
        t.seq += len(events)
        t.last = {"seat": seat, "action": action, "by": by}
        if over:
            t.status = "over"
        await self._went_on(t, dealt=deal is not None)

    async def _went_on(self, t: LiveTable, *, dealt: bool) -> None:
        """The table moved on (in the store, then in memory): at a new hand strangers
        take their bot seats; the next automatic move is planned; everyone is told."""
        t.turn_started = t.idle_since = time.monotonic()
        if t.status != "over" and dealt:
            await self.bus.publish(HandDealt(t))  # quick play seats its arrivals
        await self.bus.publish(TableChanged(t))  # the scheduler plans the next move
        broadcast(t)
        if t.status == "over":  # stored just now: this is the one process that saw it end
            await self.bus.publish(game_finished(t))

    async def _reload(self, t: LiveTable) -> bool:
        """Rebuild ``t`` from the store after a failed write; True if the store was
        ahead (the write had gone through, its answer lost) and the table went on."""
        stored = await self.run_db(self.repo.load, t.id)
        if stored is None or stored.owner != self.repo.owner:
            self.lifecycle.let_go(t)  # gone, or adopted or handed over: the new owner has it
        else:
            fresh = LiveTable.from_stored(stored)
            new = stored.events[t.seq :]
            t.state, t.seq, t.status, t.last = fresh.state, fresh.seq, fresh.status, fresh.last
            t.bids_by = fresh.bids_by
            if new:
                # The write went through after all (its answer was lost): go on from it,
                # or nobody would plan the next bot's move, nor tell the table of this one.
                await self._went_on(t, dealt=any(e.kind == "deal" for e in new))
                return True
        return False
