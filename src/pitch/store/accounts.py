"""Accounts, their sessions and the sign-in back-off (docs/server.md, "Accounts").

Every method is one short transaction, run on the server's database threads. Names
arrive here already checked and keyed (:mod:`pitch.server.accounts`): this module
stores; it does not decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from pitch.store.db import Database
from pitch.store.models import (
    AccountModel,
    LoginThrottleModel,
    PasskeyModel,
    SeatModel,
    SessionModel,
    TableModel,
)
from pitch.store.repo import _aware
from pitch.store.social import forget_account

DELETED_NAME = "deleted player {n}"
"""What a deleted account is called from then on (its games stay)."""


class NameInUse(Exception):
    """Another account has that name, or one that looks like it."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    id: int
    name: str
    password_hash: str | None
    created_at: datetime
    deleted: bool


def _row(a: AccountModel) -> AccountRow:
    return AccountRow(a.id, a.name, a.password_hash, _aware(a.created_at), a.deleted_at is not None)


class AccountStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ accounts

    def create(self, name: str, key: str, skeleton: str, password_hash: str, now: datetime) -> int:
        """A new account; :class:`NameInUse` if either key is another's (the unique
        indexes decide, so two processes cannot both give out one name)."""
        try:
            with self.db.sessions.begin() as s:
                a = AccountModel(
                    name=name,
                    name_key=key,
                    name_skeleton=skeleton,
                    password_hash=password_hash,
                    created_at=now,
                )
                s.add(a)
                s.flush()
                return a.id
        except IntegrityError:
            raise NameInUse(name) from None

    def by_key(self, key: str) -> AccountRow | None:
        """The live account with this name key (what a sign-in names)."""
        with self.db.sessions() as s:
            a = s.scalar(
                select(AccountModel).where(
                    AccountModel.name_key == key, AccountModel.deleted_at.is_(None)
                )
            )
            return _row(a) if a is not None else None

    def get(self, account_id: int) -> AccountRow | None:
        with self.db.sessions() as s:
            a = s.get(AccountModel, account_id)
            return _row(a) if a is not None else None

    def set_password(self, account_id: int, password_hash: str, *, old: str | None) -> bool:
        """Store a new hash; with ``old``, only if the stored one is still ``old`` (a
        rehash at sign-in must not undo a password change that came between)."""
        with self.db.sessions.begin() as s:
            q = update(AccountModel).where(
                AccountModel.id == account_id, AccountModel.deleted_at.is_(None)
            )
            if old is not None:
                q = q.where(AccountModel.password_hash == old)
            r = s.execute(q.values(password_hash=password_hash))
            return bool(r.rowcount)  # type: ignore[attr-defined]

    def delete(self, account_id: int, now: datetime) -> None:
        """The account goes, its games stay: the name becomes :data:`DELETED_NAME`,
        the password hash, every session and every passkey are gone, and so are its
        friendships, requests, blocks and invites (the reports it filed stay,
        anonymised). The name keys stay taken."""
        with self.db.sessions.begin() as s:
            s.execute(
                update(AccountModel)
                .where(AccountModel.id == account_id)
                .values(name=DELETED_NAME.format(n=account_id), password_hash=None, deleted_at=now)
            )
            s.execute(delete(SessionModel).where(SessionModel.account_id == account_id))
            forget_account(s, account_id)  # friends, blocks, invites; reports anonymised
            s.execute(delete(PasskeyModel).where(PasskeyModel.account_id == account_id))

    # ------------------------------------------------------------------ sessions

    def add_session(self, id_hash: str, account_id: int, now: datetime, expires: datetime) -> None:
        with self.db.sessions.begin() as s:
            s.add(
                SessionModel(
                    id_hash=id_hash,
                    account_id=account_id,
                    created_at=now,
                    last_seen=now,
                    expires_at=expires,
                )
            )

    def session(
        self, id_hash: str, now: datetime, *, touch_before: datetime, expires: datetime
    ) -> AccountRow | None:
        """The live account signed in by this session, if it has not expired; one last
        seen before ``touch_before`` is seen now and lives until ``expires`` (sliding)."""
        with self.db.sessions() as s:
            row = s.execute(
                select(SessionModel, AccountModel)
                .join(AccountModel, AccountModel.id == SessionModel.account_id)
                .where(SessionModel.id_hash == id_hash, AccountModel.deleted_at.is_(None))
            ).first()
        if row is None:
            return None
        sess, account = row
        if _aware(sess.expires_at) <= now:
            return None
        if _aware(sess.last_seen) < touch_before:
            with self.db.sessions.begin() as s:
                s.execute(
                    update(SessionModel)
                    .where(SessionModel.id_hash == id_hash)
                    .values(last_seen=now, expires_at=expires)
                )
        return _row(account)

    def end_session(self, id_hash: str) -> None:
        with self.db.sessions.begin() as s:
            s.execute(delete(SessionModel).where(SessionModel.id_hash == id_hash))

    def end_sessions(self, account_id: int) -> None:
        with self.db.sessions.begin() as s:
            s.execute(delete(SessionModel).where(SessionModel.account_id == account_id))

    def purge(self, now: datetime, forget_before: float) -> None:
        """Expired sessions, and back-off rows whose last failure is long forgotten."""
        with self.db.sessions.begin() as s:
            s.execute(delete(SessionModel).where(SessionModel.expires_at <= now))
            s.execute(delete(LoginThrottleModel).where(LoginThrottleModel.last_at < forget_before))

    # ------------------------------------------------------------------ seats

    def link_seats(
        self, account_id: int, seats: Sequence[tuple[str, str]], network: str | None = None
    ) -> int:
        """Mark the seats held by these ``(table id, token hash)`` pairs as the
        account's, where no account has them yet; the answer is how many. ``network``:
        the keyed hash of the client network they were taken from (the ratings room
        flags a rated game two of whose seats share one)."""
        n = 0
        with self.db.sessions.begin() as s:
            for table_id, token_hash in seats:
                r = s.execute(
                    update(SeatModel)
                    .where(
                        SeatModel.table_id == table_id,
                        SeatModel.token_hash == token_hash,
                        SeatModel.account_id.is_(None),
                    )
                    .values(account_id=account_id, network_hash=network)
                )
                n += r.rowcount  # type: ignore[attr-defined]
        return n

    def seat_accounts(self, table_id: str) -> dict[int, int]:
        """Which seats of the table signed-in players hold: seat -> account id (the
        ratings room's question when a game ends)."""
        with self.db.sessions() as s:
            rows = s.execute(
                select(SeatModel.seat, SeatModel.account_id).where(
                    SeatModel.table_id == table_id, SeatModel.account_id.is_not(None)
                )
            ).all()
        return {int(seat): int(account) for seat, account in rows if account is not None}

    def seat_networks(self, table_id: str) -> dict[int, str]:
        """The keyed network hashes the signed-in players' seats of the table were taken
        from: seat -> hash (seats taken before they were stored have none)."""
        with self.db.sessions() as s:
            rows = s.execute(
                select(SeatModel.seat, SeatModel.network_hash).where(
                    SeatModel.table_id == table_id,
                    SeatModel.account_id.is_not(None),
                    SeatModel.network_hash.is_not(None),
                )
            ).all()
        return {int(seat): str(h) for seat, h in rows if h is not None}

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored about the account, no secrets (docs/server.md)."""
        with self.db.sessions() as s:
            a = s.get(AccountModel, account_id)
            assert a is not None
            sessions = s.scalars(
                select(SessionModel)
                .where(SessionModel.account_id == account_id)
                .order_by(SessionModel.created_at)
            ).all()
            seats = s.execute(
                select(SeatModel, TableModel)
                .join(TableModel, TableModel.id == SeatModel.table_id)
                .where(SeatModel.account_id == account_id)
                .order_by(TableModel.created_at)
            ).all()
            passkeys = s.scalars(
                select(PasskeyModel)
                .where(PasskeyModel.account_id == account_id)
                .order_by(PasskeyModel.id)
            ).all()
            return {
                "account": {
                    "id": a.id,
                    "name": a.name,
                    "created_at": _aware(a.created_at).isoformat(),
                },
                "sessions": [
                    {
                        "created_at": _aware(x.created_at).isoformat(),
                        "last_seen": _aware(x.last_seen).isoformat(),
                        "expires_at": _aware(x.expires_at).isoformat(),
                    }
                    for x in sessions
                ],
                # Their names and times; never a key or a credential id.
                "passkeys": [
                    {
                        "label": p.label,
                        "created_at": _aware(p.created_at).isoformat(),
                        "last_used": _aware(p.last_used).isoformat() if p.last_used else None,
                    }
                    for p in passkeys
                ],
                "seats": [
                    {
                        "table": t.id,
                        "seat": seat.seat,
                        "name": seat.name,
                        "status": t.status,
                        "winner": t.winner,
                        "created_at": _aware(t.created_at).isoformat(),
                        "rules": t.rules,
                    }
                    for seat, t in seats
                ],
            }

    # ------------------------------------------------------------------ back-off

    def throttle_waits(self, keys: Sequence[str], now: float) -> dict[str, float]:
        """Seconds until a sign-in under each of ``keys`` may be tried, for those that
        must wait (one indexed read: a refused guess costs no more)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(LoginThrottleModel.key, LoginThrottleModel.next_at).where(
                    LoginThrottleModel.key.in_(keys), LoginThrottleModel.next_at > now
                )
            ).all()
        return {key: next_at - now for key, next_at in rows}

    def throttle_fail(
        self,
        keys: Sequence[tuple[str, int, float]],
        now: float,
        forget_before: float,
        first: float = 1.0,
    ) -> None:
        """One more failure under each ``(key, free, cap)``: past ``free`` failures the
        next try waits ``first`` seconds, then twice, four times... up to ``cap``. Failures before
        ``forget_before`` are forgotten. The count grows in one UPDATE (no lost
        increments between processes)."""
        with self.db.sessions.begin() as s:
            for key, free, cap in keys:
                s.execute(
                    update(LoginThrottleModel)
                    .where(
                        LoginThrottleModel.key == key, LoginThrottleModel.last_at < forget_before
                    )
                    .values(failures=0)
                )
                r = s.execute(
                    update(LoginThrottleModel)
                    .where(LoginThrottleModel.key == key)
                    .values(failures=LoginThrottleModel.failures + 1, last_at=now)
                )
                if not r.rowcount:  # type: ignore[attr-defined]
                    try:
                        with s.begin_nested():
                            s.add(LoginThrottleModel(key=key, failures=1, last_at=now, next_at=0.0))
                    except IntegrityError:  # another process's first failure came first
                        s.execute(
                            update(LoginThrottleModel)
                            .where(LoginThrottleModel.key == key)
                            .values(failures=LoginThrottleModel.failures + 1, last_at=now)
                        )
                failures = s.scalar(
                    select(LoginThrottleModel.failures).where(LoginThrottleModel.key == key)
                )
                if failures is not None and failures >= free:
                    wait = min(cap, first * 2.0 ** min(failures - free, 40))
                    s.execute(
                        update(LoginThrottleModel)
                        .where(LoginThrottleModel.key == key)
                        .values(next_at=now + wait)
                    )

    def throttle_clear(self, key: str) -> None:
        with self.db.sessions.begin() as s:
            s.execute(delete(LoginThrottleModel).where(LoginThrottleModel.key == key))
