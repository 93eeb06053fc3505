"""The accounts room: sign-up, sign-in and out, sessions, password change, deletion,
export, and linking seats to the signed-in player (docs/server.md, "Accounts").

What must hold across the cluster's processes is in the database: accounts, sessions
and the sign-in back-off. Per process: the hash pool's bound (``Hasher``) and the
sign-up rate (the route's per-address bucket).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from pitch.server.accounts.passkeys import Passkeys, Site
from pitch.server.accounts.passwords import MAX_PASSWORD, MIN_PASSWORD, Hasher, normalized
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.text import TextRefused, check_name, name_key, skeleton
from pitch.server.tables.live import hash_token
from pitch.server.tables.seats import checked_name
from pitch.store.accounts import AccountRow, AccountStore, NameInUse
from pitch.store.passkeys import PasskeyStore

T = TypeVar("T")
RunDb = Callable[..., Awaitable[Any]]

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{43}")
"""A session id as :func:`secrets.token_urlsafe` (32 bytes) writes it."""

_DELETED = re.compile(r"deleted\s*player.*")
"""A name that reads as a deleted account's (``DELETED_NAME``), as :func:`name_key` sees it."""


@dataclass(frozen=True)
class AccountLimits:
    session_days: float = 30.0
    """A session lives this long after it was last seen (sliding)."""
    touch_seconds: float = 3600.0
    """A session's expiry moves on at most once in this long (one write, not one a request)."""
    hash_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 1) // 4))
    """Hashes worked out at once: one per 4 cores, since one hash runs its 4 lanes on
    4 threads of its own (a flood of sign-ins leaves the games most of the machine)."""
    hash_queue: int = 8
    """Hashes that may wait for one of them; past that, 503 ``server_busy`` at once."""
    free_by_name: int = 5
    """Failed sign-ins under one name before the back-off starts (then 1 s, 2 s, 4 s...)."""
    backoff_seconds: float = 1.0
    """The first wait after the free failures; it doubles with each further one."""
    cap_by_name: float = 300.0
    free_by_address: int = 10
    """Failed sign-ins from one address (an IPv6 /64; its /56 and /48 get 4 and 16 times
    as many) before its back-off starts."""
    cap_by_address: float = 900.0
    forget_seconds: float = 3600.0
    """Failures older than this (since the last one) are forgotten."""


@dataclass(frozen=True)
class Signed:
    """A signed-in account and its new session id (the cookie's value)."""

    account: AccountRow
    session_id: str


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def session_hash(session_id: str) -> str:
    return _sha("session:" + session_id)


class Accounts:
    def __init__(
        self,
        store: AccountStore,
        run_db: RunDb,
        *,
        secret: bytes,
        limits: AccountLimits,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.run_db = run_db
        self.limits = limits
        self.hasher = Hasher(workers=limits.hash_workers, queue=limits.hash_queue)
        self._key = hmac.new(secret, b"pitch accounts", hashlib.sha256).digest()
        self.clock = clock
        self._sign_ins = 0
        self.passkeys = Passkeys(
            PasskeyStore(store.db),
            run_db=run_db,
            now=self._now,
            mac=self._mac,
            account_of=store.get,
        )
        """The second way in (:mod:`pitch.server.accounts.passkeys`)."""

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def _mac(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), hashlib.sha256).hexdigest()[:32]

    # ------------------------------------------------------------------ names, passwords

    @staticmethod
    def _password(password: str) -> str:
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise ServiceError(
                422,
                f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                "bad_password",
                min=MIN_PASSWORD,
                max=MAX_PASSWORD,
            )
        return normalized(password)

    @staticmethod
    def _keys(name: str) -> tuple[str, str]:
        return _sha(name_key(name)), _sha(skeleton(name))

    # ------------------------------------------------------------------ sessions

    async def _session(self, account: AccountRow) -> Signed:
        """A new session id at every sign-in: one set before (a planted cookie) never
        becomes a signed-in one (no session fixation)."""
        sid = secrets.token_urlsafe(32)
        now = self._now()
        expires = now + timedelta(days=self.limits.session_days)
        await self.run_db(self.store.add_session, session_hash(sid), account.id, now, expires)
        return Signed(account, sid)

    async def signed_in(self, session_id: str | None) -> AccountRow | None:
        """The live account this cookie signs in, or ``None`` (a guest, a session that
        ended or expired, a deleted account)."""
        if session_id is None or not SESSION_ID.fullmatch(session_id):
            return None
        now = self._now()
        return await self.run_db(  # type: ignore[no-any-return]
            self.store.session,
            session_hash(session_id),
            now,
            touch_before=now - timedelta(seconds=self.limits.touch_seconds),
            expires=now + timedelta(days=self.limits.session_days),
        )

    async def sign_out(self, session_id: str | None) -> None:
        if session_id is not None and SESSION_ID.fullmatch(session_id):
            await self.run_db(self.store.end_session, session_hash(session_id))

    async def sign_out_everywhere(self, account: AccountRow) -> None:
        await self.run_db(self.store.end_sessions, account.id)

    # ------------------------------------------------------------------ the device cookie

    def device_token(self, account: AccountRow) -> str:
        """A browser that signed in to this account once carries this (a signed note, no
        row): it is spared the account's back-off, so that guesses from elsewhere
        never keep the owner out (OWASP's "device cookies")."""
        nonce = secrets.token_urlsafe(9)
        return f"{account.id}.{nonce}.{self._mac(f'{account.id}.{nonce}')}"

    def _device_of(self, token: str | None) -> int | None:
        if not token or len(token) > 80:
            return None
        parts = token.split(".")
        if len(parts) != 3 or not parts[0].isdigit():
            return None
        good = self._mac(f"{parts[0]}.{parts[1]}")
        return int(parts[0]) if hmac.compare_digest(good, parts[2]) else None

    # ------------------------------------------------------------------ the back-off

    def _name_key(self, key: str) -> str:
        return "n:" + self._mac("name:" + key)

    def _address_keys(self, networks: Sequence[tuple[str, float]]) -> list[tuple[str, int, float]]:
        lim = self.limits
        return [
            ("a:" + self._mac("addr:" + k), int(lim.free_by_address * f), lim.cap_by_address)
            for k, f in networks
        ]

    @staticmethod
    def _refuse(wait: float) -> ServiceError:
        seconds = max(1, math.ceil(wait))
        return ServiceError(
            429,
            f"too many failed sign-ins; try again in {seconds} s",
            "too_many_attempts",
            retry_after=seconds,
        )

    async def _fail(self, keys: list[tuple[str, int, float]]) -> None:
        now = self.clock()
        lim = self.limits
        await self.run_db(
            self.store.throttle_fail, keys, now, now - lim.forget_seconds, lim.backoff_seconds
        )

    async def _verified(
        self,
        name: str,
        password: str,
        networks: Sequence[tuple[str, float]],
        device: str | None = None,
    ) -> AccountRow:
        """The account ``name`` if ``password`` is its password, else 401 ``bad_login``:
        the same answer, after the same work (a hash), for a name nobody has. Refused
        before any hash while the name or the address must wait (429)."""
        try:
            key = _sha(name_key(check_name(name)))
        except TextRefused:
            key = _sha(name_key(name))  # no account has it; counted all the same
        name_throttle = self._name_key(key)
        addresses = self._address_keys(networks)
        waits = await self.run_db(
            self.store.throttle_waits, [name_throttle, *(k for k, _, _ in addresses)], self.clock()
        )
        by_address = max((w for k, w in waits.items() if k != name_throttle), default=0.0)
        if by_address > 0:
            raise self._refuse(by_address)
        account = await self.run_db(self.store.by_key, key)
        # A browser that signed in to this account before is spared the name's back-off.
        if name_throttle in waits and (account is None or self._device_of(device) != account.id):
            raise self._refuse(waits[name_throttle])
        plain = normalized(password) if MIN_PASSWORD <= len(password) <= MAX_PASSWORD else None
        encoded = account.password_hash if account is not None else None
        ok = await self.hasher.verify(encoded, plain or "")
        if not ok or plain is None or account is None:
            lim = self.limits
            await self._fail([*addresses, (name_throttle, lim.free_by_name, lim.cap_by_name)])
            raise ServiceError(401, "the name or the password is wrong", "bad_login")
        await self.run_db(self.store.throttle_clear, name_throttle)
        if encoded is not None and self.hasher.needs_rehash(encoded):
            fresh = await self.hasher.hash(plain)
            await self.run_db(self.store.set_password, account.id, fresh, old=encoded)
        return account  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ the requests

    async def sign_up(self, name: str, password: str) -> Signed:
        name = checked_name(name)  # bad_name, name_reserved (a bot's)
        if _DELETED.fullmatch(" ".join(name_key(name).split())):
            raise ServiceError(422, f"{name!r} reads as a deleted account's", "name_reserved")
        plain = self._password(password)
        encoded = await self.hasher.hash(plain)
        key, skel = self._keys(name)
        try:
            account_id = await self.run_db(self.store.create, name, key, skel, encoded, self._now())
        except NameInUse:
            raise ServiceError(
                409, "an account goes by that name, or one that looks like it", "name_in_use"
            ) from None
        account = await self.run_db(self.store.get, account_id)
        return await self._session(account)

    async def sign_in(
        self, name: str, password: str, networks: Sequence[tuple[str, float]], device: str | None
    ) -> Signed:
        self._sign_ins += 1
        if self._sign_ins % 256 == 0:  # now and then: expired sessions, old failures
            now = self.clock()
            await self.run_db(self.store.purge, self._now(), now - self.limits.forget_seconds)
        account = await self._verified(name, password, networks, device)
        return await self._session(account)

    async def passkey_sign_in(
        self,
        site: Site,
        credential: dict[str, Any],
        nonce: str | None,
        networks: Sequence[tuple[str, float]],
    ) -> Signed:
        """Signed in by the passkey this answer was signed with, or 401 ``bad_passkey``
        (one answer for an unknown passkey, a bad signature, a used or expired
        challenge), each failure counted against the address as a failed password
        sign-in is, and refused (429) while the address must wait."""
        addresses = self._address_keys(networks)
        waits = await self.run_db(
            self.store.throttle_waits, [k for k, _, _ in addresses], self.clock()
        )
        if waits:
            raise self._refuse(max(waits.values()))
        try:
            account = await self.passkeys.verify(site, credential, nonce)
        except ServiceError:
            await self._fail(addresses)
            raise
        return await self._session(account)

    async def change_password(
        self,
        account: AccountRow,
        password: str,
        new_password: str,
        networks: Sequence[tuple[str, float]],
    ) -> Signed:
        """A new password ends every session, this one too; the answer is a new one
        for this browser."""
        await self._verified(account.name, password, networks)
        plain = self._password(new_password)
        encoded = await self.hasher.hash(plain)
        await self.run_db(self.store.set_password, account.id, encoded, old=None)
        await self.run_db(self.store.end_sessions, account.id)
        return await self._session(account)

    async def check_password(
        self, account: AccountRow, password: str, networks: Sequence[tuple[str, float]]
    ) -> None:
        """401 ``bad_login`` unless ``password`` is the account's (throttled as a sign-in)."""
        await self._verified(account.name, password, networks)

    async def delete(
        self, account: AccountRow, password: str, networks: Sequence[tuple[str, float]]
    ) -> None:
        await self._verified(account.name, password, networks)
        await self.run_db(self.store.delete, account.id, self._now())

    async def by_name(self, name: str) -> AccountRow | None:
        """The live account going by ``name`` (folded as sign-in folds it), or
        ``None``. A text the name rule refuses (invisible or bidi characters, too
        long) names nobody: it never reaches the store."""
        try:
            name = check_name(name)
        except TextRefused:
            return None
        return await self.run_db(self.store.by_key, self._keys(name)[0])  # type: ignore[no-any-return]

    async def export(self, account: AccountRow) -> dict[str, Any]:
        return await self.run_db(self.store.export, account.id)  # type: ignore[no-any-return]

    async def link_seats(
        self, account: AccountRow, seats: Sequence[tuple[str, str]], network: str | None
    ) -> int:
        """The seats these ``(table id, seat token)`` pairs hold become the account's
        (a guest who signs up keeps this browser's tables and games). ``network``: the
        client's key as the per-client limits have it (``api.deps.Client``: a keyed
        hash of its IPv4 address or IPv6 /64), kept on the seats."""
        if not seats:
            return 0
        pairs = [(t, hash_token(token)) for t, token in seats]
        return await self.run_db(self.store.link_seats, account.id, pairs, network)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.hasher.close()
