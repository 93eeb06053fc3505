"""Friends, blocks, invites and reports (docs/server.md, "Friends and safety").

Every method is one short transaction, run on the server's database threads. The
accounts arrive here already found by the accounts room's name lookup: this module
stores and counts; the caps it keeps are handed to it (``SocialCaps``).

:func:`blocked_with` is a plain function as well: quick play by rating asks it who
must never sit with an account.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pitch.store.db import Database
from pitch.store.models import (
    AccountModel,
    BlockModel,
    FriendLinkModel,
    InviteModel,
    ReportModel,
    SeatModel,
    TableModel,
)
from pitch.store.repo import _aware

REASONS = ("cheating", "abuse", "spam", "name", "other")
"""What a report may say it is about."""

LISTED = 100
"""Pending requests (each way) an overview lists at most, newest first."""

INVITES_LISTED = 50
"""Invites an overview lists at most, newest first."""


class SocialRefused(Exception):
    """The store refuses: ``code`` says why (``self``, ``blocked``, ``not_friends``,
    ``social_limit`` with ``limit``, ``no_table``, ``game_over``, ``no_invite``)."""

    def __init__(self, code: str, limit: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.limit = limit


@dataclass(frozen=True, slots=True)
class SocialCaps:
    friends: int = 500
    outgoing: int = 100
    """Friend requests an account may have waiting for an answer."""
    blocks: int = 1000
    invites: int = 20
    """Invites an account may have pending (not expired) at once."""
    reports_per_day: int = 20


@dataclass(frozen=True, slots=True)
class Friend:
    name: str
    online: bool
    table: str | None


@dataclass(frozen=True, slots=True)
class Invite:
    id: int
    sender: str
    table: str
    sent: datetime


@dataclass(frozen=True, slots=True)
class Overview:
    friends: list[Friend]
    incoming: list[str]
    outgoing: list[str]
    blocked: list[str]
    invites: list[Invite]


@dataclass(frozen=True, slots=True)
class SeatName:
    seat: int
    name: str
    account_id: int | None
    """``None``: a guest."""


@dataclass(frozen=True, slots=True)
class ReportRow:
    id: int
    reporter: str | None
    """The reporter's name (``None``: their account was deleted since)."""
    reported: str | None
    """The reported account's name now (``None``: a guest's seat, no account)."""
    name: str
    """The name as the reporter saw it: the seat's, else the account's then."""
    seat: int | None
    """The seat at ``table`` reported by its name (``None``: by account name)."""
    table: str | None
    chat: str | None
    reason: str
    text: str
    record: dict[str, Any] | None
    created_at: datetime


def _blocked_with(s: Session, account_id: int) -> set[int]:
    rows = s.execute(
        select(BlockModel.blocked_id)
        .where(BlockModel.blocker_id == account_id)
        .union(select(BlockModel.blocker_id).where(BlockModel.blocked_id == account_id))
    ).all()
    return {int(r[0]) for r in rows}


def blocked_with(session_or_db: Session | Database, account_id: int) -> set[int]:
    """The accounts that ``account_id`` blocks or is blocked by: nobody of them is
    seated with it by quick play, chats to it, befriends or invites it. One indexed
    read (both columns of ``blocks`` are indexed). ``session_or_db``: an open SQLAlchemy
    session (the caller's transaction), or the :class:`Database` (a session of its own)."""
    if isinstance(session_or_db, Session):
        return _blocked_with(session_or_db, account_id)
    with session_or_db.sessions() as s:
        return _blocked_with(s, account_id)


def _either_blocks(s: Session, a: int, b: int) -> bool:
    return (
        s.scalar(
            select(func.count()).where(
                or_(
                    and_(BlockModel.blocker_id == a, BlockModel.blocked_id == b),
                    and_(BlockModel.blocker_id == b, BlockModel.blocked_id == a),
                )
            )
        )
        or 0
    ) > 0


def _link(s: Session, a: int, b: int) -> bool:
    return s.get(FriendLinkModel, (a, b)) is not None


def _unlink(s: Session, a: int, b: int) -> None:
    s.execute(
        delete(FriendLinkModel).where(
            or_(
                and_(FriendLinkModel.from_id == a, FriendLinkModel.to_id == b),
                and_(FriendLinkModel.from_id == b, FriendLinkModel.to_id == a),
            )
        )
    )


def _friends_of(s: Session, me: int) -> Select[Any]:
    """The ids of ``me``'s friends (links both ways), as a subquery's select."""
    back = select(FriendLinkModel.from_id).where(FriendLinkModel.to_id == me)
    return select(FriendLinkModel.to_id).where(
        FriendLinkModel.from_id == me, FriendLinkModel.to_id.in_(back)
    )


def _count(s: Session, q: Any) -> int:
    return int(s.scalar(select(func.count()).select_from(q.subquery())) or 0)


class SocialStore:
    def __init__(self, db: Database, caps: SocialCaps) -> None:
        self.db = db
        self.caps = caps

    def blocked_with(self, account_id: int) -> set[int]:
        """:func:`blocked_with` in a session of its own."""
        return blocked_with(self.db, account_id)

    # ------------------------------------------------------------------ presence

    def seen(self, account_id: int, now: datetime, before: datetime) -> None:
        """The account was seen now; written only if the stored time is before
        ``before`` (another process may have written it a moment ago)."""
        with self.db.sessions.begin() as s:
            s.execute(
                update(AccountModel)
                .where(
                    AccountModel.id == account_id,
                    or_(AccountModel.last_seen.is_(None), AccountModel.last_seen < before),
                )
                .values(last_seen=now)
            )

    # ------------------------------------------------------------------ the overview

    def overview(self, me: int, online_after: datetime, invites_after: datetime) -> Overview:
        """What the lobby shows a signed-in player: a few indexed reads, every list
        bounded (friends and outgoing requests by their caps, the rest by ``LISTED``)."""
        with self.db.sessions() as s:
            mine = s.execute(
                select(FriendLinkModel.to_id, FriendLinkModel.created_at).where(
                    FriendLinkModel.from_id == me
                )
            ).all()
            out_ids = {int(i) for i, _ in mine}
            back = select(FriendLinkModel.from_id).where(FriendLinkModel.to_id == me)
            friend_ids = {
                int(i)
                for i in s.scalars(
                    select(FriendLinkModel.to_id).where(
                        FriendLinkModel.from_id == me, FriendLinkModel.to_id.in_(back)
                    )
                )
            }
            incoming = s.execute(
                select(AccountModel.name)
                .join(FriendLinkModel, FriendLinkModel.from_id == AccountModel.id)
                .where(
                    FriendLinkModel.to_id == me,
                    FriendLinkModel.from_id.not_in(
                        select(FriendLinkModel.to_id).where(FriendLinkModel.from_id == me)
                    ),
                    AccountModel.deleted_at.is_(None),
                )
                .order_by(FriendLinkModel.created_at.desc())
                .limit(LISTED)
            ).all()
            blocks = _blocked_with(s, me)
            people = {
                a.id: a
                for a in s.scalars(
                    select(AccountModel).where(
                        AccountModel.id.in_(out_ids), AccountModel.deleted_at.is_(None)
                    )
                )
            }
            tables: dict[int, str] = {}
            if friend_ids:
                for account_id, table_id in s.execute(
                    select(SeatModel.account_id, SeatModel.table_id)
                    .join(TableModel, TableModel.id == SeatModel.table_id)
                    .where(
                        SeatModel.account_id.in_(friend_ids - blocks),
                        TableModel.status == "playing",
                    )
                    .order_by(TableModel.updated_at)
                ):
                    tables[int(account_id or 0)] = str(table_id)  # the last one played wins
            friends = []
            for a in sorted(
                (people[i] for i in friend_ids if i in people), key=lambda a: a.name.casefold()
            ):
                i = a.id
                hidden = i in blocks  # a block ends friendship; this is belt and braces
                seen = a.last_seen
                friends.append(
                    Friend(
                        name=a.name,
                        online=not hidden and seen is not None and _aware(seen) >= online_after,
                        table=None if hidden else tables.get(i),
                    )
                )
            outgoing = [
                people[i].name
                for i, _ in sorted(mine, key=lambda r: r[1], reverse=True)
                if i not in friend_ids and i in people
            ]
            blocked = s.scalars(
                select(AccountModel.name)
                .join(BlockModel, BlockModel.blocked_id == AccountModel.id)
                .where(BlockModel.blocker_id == me)
                .order_by(BlockModel.created_at.desc())
                .limit(self.caps.blocks)
            ).all()
            invites = s.execute(
                select(InviteModel, AccountModel.name)
                .join(AccountModel, AccountModel.id == InviteModel.from_id)
                # A table that is over (or gone: abandoned) has nothing to join any more.
                .join(TableModel, TableModel.id == InviteModel.table_id)
                .where(
                    InviteModel.to_id == me,
                    InviteModel.sent_at > invites_after,
                    TableModel.status != "over",
                )
                .order_by(InviteModel.sent_at.desc())
                .limit(INVITES_LISTED)
            ).all()
            return Overview(
                friends=friends,
                incoming=[str(n) for (n,) in incoming],
                outgoing=outgoing,
                blocked=[str(n) for n in blocked],
                invites=[
                    Invite(inv.id, str(name), inv.table_id, _aware(inv.sent_at))
                    for inv, name in invites
                    if inv.from_id not in blocks
                ],
            )

    # ------------------------------------------------------------------ friends

    def befriend(self, me: int, other: int, now: datetime) -> str:
        """Ask ``other`` to be friends, or accept their request: ``"requested"`` or
        ``"friends"``; the same answer again on a repeat."""
        if me == other:
            raise SocialRefused("self")
        caps = self.caps
        try:
            with self.db.sessions.begin() as s:
                if _either_blocks(s, me, other):
                    raise SocialRefused("blocked")
                theirs = _link(s, other, me)
                if _link(s, me, other):
                    return "friends" if theirs else "requested"
                if theirs:
                    for who in (me, other):
                        if _count(s, _friends_of(s, who)) >= caps.friends:
                            raise SocialRefused("social_limit", caps.friends)
                else:
                    waiting = select(FriendLinkModel.to_id).where(
                        FriendLinkModel.from_id == me,
                        FriendLinkModel.to_id.not_in(
                            select(FriendLinkModel.from_id).where(FriendLinkModel.to_id == me)
                        ),
                    )
                    if _count(s, waiting) >= caps.outgoing:
                        raise SocialRefused("social_limit", caps.outgoing)
                s.add(FriendLinkModel(from_id=me, to_id=other, created_at=now))
                s.flush()
                return "friends" if theirs else "requested"
        except IntegrityError:  # the same request from another process came first
            with self.db.sessions() as s:
                return "friends" if _link(s, other, me) else "requested"

    def unfriend(self, me: int, other: int) -> None:
        """No friendship or request between the two any more (either way)."""
        with self.db.sessions.begin() as s:
            _unlink(s, me, other)

    # ------------------------------------------------------------------ blocks

    def block(self, me: int, other: int, now: datetime) -> None:
        """``me`` blocks ``other``: friendship, requests and invites between them end."""
        if me == other:
            raise SocialRefused("self")
        try:
            with self.db.sessions.begin() as s:
                if s.get(BlockModel, (me, other)) is not None:
                    return
                n = s.scalar(select(func.count()).where(BlockModel.blocker_id == me)) or 0
                if n >= self.caps.blocks:
                    raise SocialRefused("social_limit", self.caps.blocks)
                _unlink(s, me, other)
                s.execute(
                    delete(InviteModel).where(
                        or_(
                            and_(InviteModel.from_id == me, InviteModel.to_id == other),
                            and_(InviteModel.from_id == other, InviteModel.to_id == me),
                        )
                    )
                )
                s.add(BlockModel(blocker_id=me, blocked_id=other, created_at=now))
        except IntegrityError:  # the same block from another process came first
            pass

    def unblock(self, me: int, other: int) -> None:
        with self.db.sessions.begin() as s:
            s.execute(
                delete(BlockModel).where(
                    BlockModel.blocker_id == me, BlockModel.blocked_id == other
                )
            )

    # ------------------------------------------------------------------ invites

    def invite(
        self, me: int, other: int, table_id: str, now: datetime, expired_before: datetime
    ) -> int:
        """Invite a friend to a table that is not over; one pending invite per
        sender, receiver and table (a repeat sends it anew and answers its id)."""
        if me == other:
            raise SocialRefused("self")
        try:
            with self.db.sessions.begin() as s:
                if _either_blocks(s, me, other):
                    raise SocialRefused("blocked")
                if not (_link(s, me, other) and _link(s, other, me)):
                    raise SocialRefused("not_friends")
                status = s.scalar(select(TableModel.status).where(TableModel.id == table_id))
                if status is None:
                    raise SocialRefused("no_table")
                if status == "over":
                    raise SocialRefused("game_over")
                s.execute(
                    delete(InviteModel).where(
                        InviteModel.sent_at <= expired_before, InviteModel.from_id == me
                    )
                )
                old = s.scalar(
                    select(InviteModel).where(
                        InviteModel.from_id == me,
                        InviteModel.to_id == other,
                        InviteModel.table_id == table_id,
                    )
                )
                if old is not None:
                    old.sent_at = now
                    return int(old.id)
                n = s.scalar(select(func.count()).where(InviteModel.from_id == me)) or 0
                if n >= self.caps.invites:
                    raise SocialRefused("social_limit", self.caps.invites)
                inv = InviteModel(from_id=me, to_id=other, table_id=table_id, sent_at=now)
                s.add(inv)
                s.flush()
                return int(inv.id)
        except IntegrityError:  # the same invite from another process came first
            with self.db.sessions() as s:
                found = s.scalar(
                    select(InviteModel.id).where(
                        InviteModel.from_id == me,
                        InviteModel.to_id == other,
                        InviteModel.table_id == table_id,
                    )
                )
            if found is None:
                raise
            return int(found)

    def drop_invite(self, me: int, invite_id: int) -> bool:
        """The receiver dismisses an invite, or its sender withdraws it; ``False`` if
        it is neither's, or gone."""
        with self.db.sessions.begin() as s:
            r = s.execute(
                delete(InviteModel).where(
                    InviteModel.id == invite_id,
                    or_(InviteModel.to_id == me, InviteModel.from_id == me),
                )
            )
            return bool(r.rowcount)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ reports

    def seat_names(self, table_id: str) -> list[SeatName]:
        """The named human seats of the table and their accounts (a report names a seat
        as the table shows it)."""
        with self.db.sessions() as s:
            rows = s.execute(
                select(SeatModel.seat, SeatModel.name, SeatModel.account_id)
                .where(
                    SeatModel.table_id == table_id,
                    SeatModel.kind == "human",
                    SeatModel.name.is_not(None),
                )
                .order_by(SeatModel.seat)
            ).all()
        return [SeatName(int(seat), str(name), account) for seat, name, account in rows]

    def report(
        self,
        reporter: int,
        reported: int | None,
        *,
        name: str,
        seat: int | None,
        table_id: str | None,
        chat: str | None,
        reason: str,
        text: str,
        record: dict[str, Any] | None,
        now: datetime,
    ) -> int:
        with self.db.sessions.begin() as s:
            n = (
                s.scalar(
                    select(func.count()).where(
                        ReportModel.reporter_id == reporter,
                        ReportModel.created_at > now - timedelta(days=1),
                    )
                )
                or 0
            )
            if n >= self.caps.reports_per_day:
                raise SocialRefused("social_limit", self.caps.reports_per_day)
            r = ReportModel(
                reporter_id=reporter,
                reported_id=reported,
                reported_seat=seat,
                reported_name=name,
                table_id=table_id,
                chat=chat,
                reason=reason,
                text=text,
                record=record,
                created_at=now,
            )
            s.add(r)
            s.flush()
            return int(r.id)

    def reports(self, limit: int = 1000) -> list[ReportRow]:
        """The newest reports, for the operator (``pitch reports list``)."""
        with self.db.sessions() as s:
            rows = s.scalars(
                select(ReportModel).order_by(ReportModel.created_at.desc()).limit(limit)
            ).all()
            ids = {r.reported_id for r in rows if r.reported_id} | {
                r.reporter_id for r in rows if r.reporter_id
            }
            names = dict(
                s.execute(
                    select(AccountModel.id, AccountModel.name).where(AccountModel.id.in_(ids))
                ).all()
            )
            return [
                ReportRow(
                    id=r.id,
                    reporter=None if r.reporter_id is None else names.get(r.reporter_id),
                    reported=None if r.reported_id is None else names.get(r.reported_id, "?"),
                    name=r.reported_name,
                    seat=r.reported_seat,
                    table=r.table_id,
                    chat=r.chat,
                    reason=r.reason,
                    text=r.text,
                    record=dict(r.record) if r.record is not None else None,
                    created_at=_aware(r.created_at),
                )
                for r in rows
            ]

    # ------------------------------------------------------------------ an account's end

    def forget(self, account_id: int) -> None:
        """A deleted account: its friendships, requests, blocks and invites go (both
        ways); the reports it filed stay, without its id (anonymised)."""
        with self.db.sessions.begin() as s:
            forget_account(s, account_id)

    def export(self, account_id: int) -> dict[str, Any]:
        """What the social tables hold about the account (its data export)."""
        with self.db.sessions() as s:
            names = _Names(s)
            out = s.execute(
                select(FriendLinkModel.to_id, FriendLinkModel.created_at).where(
                    FriendLinkModel.from_id == account_id
                )
            ).all()
            into = s.execute(
                select(FriendLinkModel.from_id, FriendLinkModel.created_at).where(
                    FriendLinkModel.to_id == account_id
                )
            ).all()
            back = {int(i) for i, _ in into}
            ahead = {int(i) for i, _ in out}
            blocks = s.execute(
                select(BlockModel.blocked_id, BlockModel.created_at).where(
                    BlockModel.blocker_id == account_id
                )
            ).all()
            invites = s.scalars(
                select(InviteModel).where(
                    or_(InviteModel.from_id == account_id, InviteModel.to_id == account_id)
                )
            ).all()
            reports = s.scalars(
                select(ReportModel).where(ReportModel.reporter_id == account_id)
            ).all()
            names.load(
                [*ahead, *back, *(b for b, _ in blocks)]
                + [i.from_id for i in invites]
                + [i.to_id for i in invites]
            )

            def at(t: datetime) -> str:
                return _aware(t).isoformat()

            return {
                "friends": [{"name": names[i], "since": at(t)} for i, t in out if int(i) in back],
                "requests_sent": [
                    {"name": names[i], "at": at(t)} for i, t in out if int(i) not in back
                ],
                "requests_received": [
                    {"name": names[i], "at": at(t)} for i, t in into if int(i) not in ahead
                ],
                "blocked": [{"name": names[i], "at": at(t)} for i, t in blocks],
                "invites_sent": [
                    {"to": names[i.to_id], "table": i.table_id, "at": at(i.sent_at)}
                    for i in invites
                    if i.from_id == account_id
                ],
                "invites_received": [
                    {"from": names[i.from_id], "table": i.table_id, "at": at(i.sent_at)}
                    for i in invites
                    if i.to_id == account_id
                ],
                "reports_filed": [
                    {
                        "name": r.reported_name,
                        "seat": r.reported_seat,
                        "table": r.table_id,
                        "chat": r.chat,
                        "reason": r.reason,
                        "text": r.text,
                        "at": at(r.created_at),
                    }
                    for r in reports
                ],
            }


class _Names:
    def __init__(self, s: Session) -> None:
        self.s = s
        self.names: dict[int, str] = {}

    def load(self, ids: Iterable[int]) -> None:
        want = set(ids)
        if want:
            self.names.update(
                self.s.execute(
                    select(AccountModel.id, AccountModel.name).where(AccountModel.id.in_(want))
                ).all()
            )

    def __getitem__(self, i: int) -> str:
        return self.names.get(int(i), "?")


def forget_account(s: Session, account_id: int) -> None:
    """In the caller's transaction: what :meth:`SocialStore.forget` does (the
    accounts store's deletion calls it, so that both happen at once)."""
    s.execute(
        delete(FriendLinkModel).where(
            or_(FriendLinkModel.from_id == account_id, FriendLinkModel.to_id == account_id)
        )
    )
    s.execute(
        delete(BlockModel).where(
            or_(BlockModel.blocker_id == account_id, BlockModel.blocked_id == account_id)
        )
    )
    s.execute(
        delete(InviteModel).where(
            or_(InviteModel.from_id == account_id, InviteModel.to_id == account_id)
        )
    )
    s.execute(
        update(ReportModel).where(ReportModel.reporter_id == account_id).values(reporter_id=None)
    )
