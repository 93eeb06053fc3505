"""Passkeys (WebAuthn credentials) and their challenges (docs/server.md, "Passkeys").

Every method is one short transaction on the server's database threads. What arrives
here is already verified (:mod:`pitch.server.accounts.passkeys`): this module stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from pitch.store.db import Database
from pitch.store.models import AccountModel, PasskeyChallengeModel, PasskeyModel
from pitch.store.repo import _aware


class PasskeyRefused(Exception):
    """The account has as many passkeys as it may, or the credential is known already."""


@dataclass(frozen=True, slots=True)
class PasskeyRow:
    id: int
    account_id: int
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    label: str
    created_at: datetime
    last_used: datetime | None


def _row(p: PasskeyModel) -> PasskeyRow:
    return PasskeyRow(
        p.id,
        p.account_id,
        p.credential_id,
        bytes(p.public_key),
        p.sign_count,
        tuple(t for t in p.transports.split(",") if t),
        p.label,
        _aware(p.created_at),
        _aware(p.last_used) if p.last_used is not None else None,
    )


class PasskeyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ challenges

    def add_challenge(
        self, challenge_hash: str, purpose: str, binding: str, expires: datetime, now: datetime
    ) -> None:
        """A new challenge; the expired ones go in the same transaction (each handed
        out challenge is one row for at most its lifetime)."""
        with self.db.sessions.begin() as s:
            s.execute(delete(PasskeyChallengeModel).where(PasskeyChallengeModel.expires_at <= now))
            s.add(
                PasskeyChallengeModel(
                    challenge_hash=challenge_hash,
                    purpose=purpose,
                    binding=binding,
                    expires_at=expires,
                )
            )

    def take_challenge(
        self, challenge_hash: str, purpose: str, binding: str, now: datetime
    ) -> bool:
        """Whether this challenge was handed out for ``purpose`` to ``binding`` and is
        still live; it is gone either way once matched (one DELETE: of two answers
        through two processes, only one finds it)."""
        match = (
            PasskeyChallengeModel.challenge_hash == challenge_hash,
            PasskeyChallengeModel.purpose == purpose,
            PasskeyChallengeModel.binding == binding,
        )
        with self.db.sessions.begin() as s:
            expires = s.scalar(select(PasskeyChallengeModel.expires_at).where(*match))
            if expires is None:
                return False
            r = s.execute(delete(PasskeyChallengeModel).where(*match))
            return bool(r.rowcount) and _aware(expires) > now  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ passkeys

    def add(
        self,
        account_id: int,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        transports: Sequence[str],
        label: str,
        now: datetime,
        most: int,
    ) -> PasskeyRow:
        """A new passkey of a live account; :class:`PasskeyRefused` when it has
        ``most`` already or the credential is registered (to anyone)."""
        try:
            with self.db.sessions.begin() as s:
                # Lock the account's row: two registrations at once cannot both pass the count.
                live = s.scalar(
                    select(AccountModel.id)
                    .where(AccountModel.id == account_id, AccountModel.deleted_at.is_(None))
                    .with_for_update()
                )
                if live is None:
                    raise PasskeyRefused("account gone")
                n = s.scalar(select(func.count()).where(PasskeyModel.account_id == account_id))
                if (n or 0) >= most:
                    raise PasskeyRefused("too many")
                p = PasskeyModel(
                    account_id=account_id,
                    credential_id=credential_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    transports=",".join(transports),
                    label=label,
                    created_at=now,
                    last_used=None,
                )
                s.add(p)
                s.flush()
                return _row(p)
        except IntegrityError:
            raise PasskeyRefused("known") from None

    def of_account(self, account_id: int) -> list[PasskeyRow]:
        with self.db.sessions() as s:
            rows = s.scalars(
                select(PasskeyModel)
                .where(PasskeyModel.account_id == account_id)
                .order_by(PasskeyModel.id)
            ).all()
            return [_row(p) for p in rows]

    def by_credential(self, credential_id: str) -> PasskeyRow | None:
        """The passkey with this credential id, if its account is live."""
        with self.db.sessions() as s:
            p = s.scalar(
                select(PasskeyModel)
                .join(AccountModel, AccountModel.id == PasskeyModel.account_id)
                .where(
                    PasskeyModel.credential_id == credential_id,
                    AccountModel.deleted_at.is_(None),
                )
            )
            return _row(p) if p is not None else None

    def used(self, passkey_id: int, old_count: int, new_count: int, now: datetime) -> bool:
        """Record a sign-in: the new signature counter, if the stored one is still
        ``old_count`` (of two answers signed with one counter, only one counts)."""
        with self.db.sessions.begin() as s:
            r = s.execute(
                update(PasskeyModel)
                .where(PasskeyModel.id == passkey_id, PasskeyModel.sign_count == old_count)
                .values(sign_count=new_count, last_used=now)
            )
            return bool(r.rowcount)  # type: ignore[attr-defined]

    def remove(self, account_id: int, passkey_id: int) -> bool:
        with self.db.sessions.begin() as s:
            r = s.execute(
                delete(PasskeyModel).where(
                    PasskeyModel.id == passkey_id, PasskeyModel.account_id == account_id
                )
            )
            return bool(r.rowcount)  # type: ignore[attr-defined]
