"""Friends, blocks, invites and reports between signed-in players, and when each was
last seen (presence). Everything is in the database: any process of the cluster
answers the same. Names are found by the accounts room's one name lookup (handed in
as ``find``: this room calls no other room)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pitch.engine import game_record
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.text import TextRefused, clean_text, name_key
from pitch.server.tables.chat import MAX_TEXT
from pitch.server.tables.live import LiveTable, chat_message
from pitch.store import TableRepo
from pitch.store.accounts import AccountRow
from pitch.store.social import Overview, SeatName, SocialCaps, SocialRefused, SocialStore

log = logging.getLogger("pitch.server")

RunDb = Callable[..., Awaitable[Any]]
Find = Callable[[str], Awaitable[AccountRow | None]]

REPORT_TEXT = 500
"""Characters a report's own words may have."""

SEEN_KEPT = 10_000
"""Accounts whose last write of ``last_seen`` this process remembers (then it forgets
the old ones: at worst one more write)."""


@dataclass(frozen=True)
class SocialLimits:
    caps: SocialCaps = field(default_factory=SocialCaps)
    invite_seconds: float = 600.0
    """An invite is shown this long after it was sent."""
    online_seconds: float = 120.0
    """A friend seen this recently is online."""
    seen_seconds: float = 60.0
    """``last_seen`` is written at most once in this long per account."""


_MESSAGES = {
    "self": (409, "that is you"),
    "blocked": (409, "one of you blocks the other"),
    "not_friends": (409, "you may invite only your friends"),
    "no_table": (404, "no table has this id"),
    "game_over": (409, "the game is over"),
    "no_invite": (404, "no invite of yours has this id"),
}


def _refusal(e: SocialRefused) -> ServiceError:
    if e.code == "social_limit":
        assert e.limit is not None
        return ServiceError(409, f"at most {e.limit} of these", "social_limit", limit=e.limit)
    status, detail = _MESSAGES[e.code]
    if e.code == "self":
        return ServiceError(status, detail, "self")
    if e.code == "blocked":
        return ServiceError(status, detail, "blocked")
    if e.code == "not_friends":
        return ServiceError(status, detail, "not_friends")
    if e.code == "no_table":
        return ServiceError(status, detail, "no_table")
    if e.code == "game_over":
        return ServiceError(status, detail, "game_over")
    return ServiceError(status, detail, "no_invite")


class Social:
    def __init__(
        self,
        store: SocialStore,
        repo: TableRepo,
        run_db: RunDb,
        find: Find,
        limits: SocialLimits,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.repo = repo
        self.run_db = run_db
        self.find = find
        self.limits = limits
        self.clock = clock
        self._written: dict[int, float] = {}
        """When this process last wrote each account's ``last_seen`` (``clock``)."""

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def _call(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            return await self.run_db(fn, *args, **kw)
        except SocialRefused as e:
            raise _refusal(e) from None

    async def _other(self, name: str) -> AccountRow:
        other = await self.find(name)
        if other is None:
            raise ServiceError(404, "no player goes by that name", "no_such_player")
        return other

    # ------------------------------------------------------------------ presence

    async def seen(self, account_id: int) -> None:
        """The account was seen (a request, a table socket): ``last_seen`` is written
        at most once a minute per account and process, so this costs nothing most times."""
        now = self.clock()
        last = self._written.get(account_id)
        if last is not None and now - last < self.limits.seen_seconds:
            return
        if len(self._written) >= SEEN_KEPT:
            old = now - self.limits.seen_seconds
            self._written = {k: v for k, v in self._written.items() if v > old}
            if len(self._written) >= SEEN_KEPT:
                self._written.clear()
        self._written[account_id] = now
        at = self._now()
        try:
            await self.run_db(
                self.store.seen, account_id, at, at - timedelta(seconds=self.limits.seen_seconds)
            )
        except Exception:  # presence is worth no failed request or closed socket
            log.exception("could not write when account %s was seen", account_id)

    # ------------------------------------------------------------------ the requests

    async def overview(self, me: AccountRow) -> Overview:
        now = self._now()
        lim = self.limits
        return await self.run_db(  # type: ignore[no-any-return]
            self.store.overview,
            me.id,
            now - timedelta(seconds=lim.online_seconds),
            now - timedelta(seconds=lim.invite_seconds),
        )

    async def befriend(self, me: AccountRow, name: str) -> str:
        other = await self._other(name)
        return await self._call(self.store.befriend, me.id, other.id, self._now())  # type: ignore[no-any-return]

    async def unfriend(self, me: AccountRow, name: str) -> None:
        other = await self._other(name)
        await self._call(self.store.unfriend, me.id, other.id)

    async def block(self, me: AccountRow, name: str) -> int:
        """Block the player ``name``; the answer is their account id."""
        other = await self._other(name)
        await self._call(self.store.block, me.id, other.id, self._now())
        return other.id

    async def unblock(self, me: AccountRow, name: str) -> int:
        other = await self._other(name)
        await self._call(self.store.unblock, me.id, other.id)
        return other.id

    async def invite(self, me: AccountRow, name: str, table_id: str) -> int:
        other = await self._other(name)
        now = self._now()
        return await self._call(  # type: ignore[no-any-return]
            self.store.invite,
            me.id,
            other.id,
            table_id,
            now,
            now - timedelta(seconds=self.limits.invite_seconds),
        )

    async def drop_invite(self, me: AccountRow, invite_id: int) -> None:
        if not await self.run_db(self.store.drop_invite, me.id, invite_id):
            raise _refusal(SocialRefused("no_invite"))

    async def report(
        self,
        me: AccountRow,
        name: str,
        *,
        table_id: str | None,
        chat: str | None,
        reason: str,
        text: str,
    ) -> int:
        try:
            text = clean_text(text, REPORT_TEXT, what="A report") if text.strip() else ""
            chat = clean_text(chat, MAX_TEXT, what="A chat line") if chat is not None else None
        except TextRefused as e:
            raise ServiceError(422, e.message, "bad_text", reason=e.reason, **e.extra) from None
        record, seat = None, None
        if table_id is not None:
            found = await self.run_db(self._at_table, table_id, name)
            if found is None:
                raise _refusal(SocialRefused("no_table"))
            record, seat = found
        if seat is not None:
            # A chat line (and a seat) carries the name typed at the table: a guest's,
            # or a signed-in player's that need not be their account's.
            reported, shown = seat.account_id, seat.name
        else:
            other = await self._other(name)
            reported, shown = other.id, other.name
        if reported == me.id:
            raise _refusal(SocialRefused("self"))
        return await self._call(  # type: ignore[no-any-return]
            self.store.report,
            me.id,
            reported,
            name=shown,
            seat=None if seat is None else seat.seat,
            table_id=table_id,
            chat=chat,
            reason=reason,
            text=text,
            record=record,
            now=self._now(),
        )

    def _at_table(self, table_id: str, name: str) -> tuple[dict[str, Any], SeatName | None] | None:
        """The table's record (:meth:`_record`) and the human seat that goes by
        ``name`` there (the same name, else the same :func:`name_key`: seat names at
        a table differ in it), or ``None`` for no such table. From the store, so that
        any process answers for any process's table."""
        record = self._record(table_id)
        if record is None:
            return None
        seats = self.store.seat_names(table_id)
        seat = next((s for s in seats if s.name == name), None)
        if seat is None:
            key = name_key(name)
            seat = next((s for s in seats if name_key(s.name) == key), None)
        return record, seat

    def _record(self, table_id: str) -> dict[str, Any] | None:
        """The table's game record as it stands now (its finished hands, in the
        engine's record format), its seats and its last chat lines: a copy kept with
        the report, whatever the table becomes. Read from the store, so that a report
        to any process sees the table another serves (as of its last commit)."""
        st = self.repo.load(table_id)
        if st is None:
            return None
        t = LiveTable.from_stored(st)
        rec: dict[str, Any] = (
            game_record(t.state, table=t.id, players=t.names())
            if t.state is not None
            else {"table": t.id, "players": t.names(), "hands": []}
        )
        rec["status"] = st.status
        rec["seats"] = [{"seat": i, "kind": s.kind, "name": s.name} for i, s in enumerate(st.seats)]
        rec["chat"] = [chat_message(c) for c in st.chat]
        return rec

    async def blocked_with(self, account_id: int) -> set[int]:
        """The accounts this one blocks or is blocked by (``pitch.store.social``)."""
        return await self.run_db(self.store.blocked_with, account_id)  # type: ignore[no-any-return]

    async def forget(self, account_id: int) -> None:
        await self.run_db(self.store.forget, account_id)

    async def export(self, me: AccountRow) -> dict[str, Any]:
        return await self.run_db(self.store.export, me.id)  # type: ignore[no-any-return]
