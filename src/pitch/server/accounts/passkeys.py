"""Passkeys: WebAuthn credentials as a second way in to an account, with py_webauthn
doing the protocol (docs/server.md, "Passkeys").

A signed-in player adds one (``register_options`` then ``register``); anyone signs in
with one without typing a name (``sign_in_options`` then ``sign_in``: the credential is
discoverable, so the authenticator says whose it is). Every challenge is random,
stored in the database (any process of a cluster may get the answer), bound to what
asked for it (the session, or a one-time cookie of the browser that asked to sign
in), used once and dead after :data:`CHALLENGE_SECONDS`. The relying party (its id and
the origin the browser must name) is the site as the server already knows it
(:class:`Site`), never a field of the request body.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cbor2 import CBORError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.text import TextRefused, clean_text
from pitch.store.accounts import AccountRow
from pitch.store.passkeys import PasskeyRefused, PasskeyRow, PasskeyStore

PASSKEYS_PER_ACCOUNT = 10
"""Passkeys one account may have (each one row, and one more id in every
registration's list of credentials the authenticator must not make again)."""
LABEL_LIMIT = 40
"""Characters of a passkey's name (the text rule of names and chat)."""
CHALLENGE_SECONDS = 300
"""A challenge is answered within this long, or never."""
PUBLIC_KEY_BYTES = 1024
"""The largest COSE public key stored (an RSA-4096 key is some 550 bytes)."""
PASSKEY_OPTIONS_PER_MINUTE = 20
"""Challenges one address may ask for in a minute (sign-in and adding together)."""
RP_NAME = "Pitch"

REFUSED = (WebAuthnException, CBORError, ValueError, KeyError, TypeError, RecursionError)
"""What py_webauthn raises for an answer it cannot read or verify (hostile input)."""
_TRANSPORTS = frozenset(t.value for t in AuthenticatorTransport)


@dataclass(frozen=True)
class Site:
    """The relying party: ``rp_id`` is the site's host name, ``origin`` what a
    browser on its pages names (``https://pitch.example``, ``http://localhost:8000``)."""

    rp_id: str
    origin: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _bad(detail: str = "the passkey was not accepted") -> ServiceError:
    return ServiceError(401, detail, "bad_passkey")


def _challenge_of(credential: dict[str, Any]) -> str:
    """The challenge the browser signed, read from its client data (verification then
    checks it byte for byte): what picks the stored challenge to match."""
    try:
        data = json.loads(_unb64(credential["response"]["clientDataJSON"]))
        challenge = data["challenge"]
    except (KeyError, TypeError, ValueError, RecursionError):  # nested 3,000 deep: RecursionError
        raise _bad("the passkey's answer could not be read") from None
    if not isinstance(challenge, str) or not 16 <= len(challenge) <= 128:
        raise _bad("the passkey's answer could not be read")
    return challenge


class Passkeys:
    """Passkeys' registration and their answers' checks. The accounts service hands
    in what it shares with them (its database threads, clock, key and account
    lookup) and keeps the sign-in itself: throttling and the session."""

    def __init__(
        self,
        store: PasskeyStore,
        *,
        run_db: Callable[..., Awaitable[Any]],
        now: Callable[[], datetime],
        mac: Callable[[str], str],
        account_of: Callable[[int], AccountRow | None],
    ) -> None:
        self.store = store
        self.run_db = run_db
        self.now = now
        self.mac = mac
        self.account_of = account_of

    def _user_handle(self, account_id: int) -> bytes:
        """The account's WebAuthn user id: a keyed hash of its number (no name, no
        number an authenticator could show or another site could link)."""
        return bytes.fromhex(self.mac(f"passkey user:{account_id}"))

    async def _challenge(self, purpose: str, binding: str) -> bytes:
        challenge = secrets.token_bytes(32)
        now = self.now()
        await self.run_db(
            self.store.add_challenge,
            _sha(_b64(challenge)),
            purpose,
            binding,
            now + timedelta(seconds=CHALLENGE_SECONDS),
            now,
        )
        return challenge

    async def _take(self, credential: dict[str, Any], purpose: str, binding: str) -> bytes:
        challenge = _challenge_of(credential)
        ok = await self.run_db(
            self.store.take_challenge, _sha(challenge), purpose, binding, self.now()
        )
        if not ok:
            raise _bad("the passkey's challenge is unknown, used or expired: try again")
        return _unb64(challenge)

    # ------------------------------------------------------------------ adding one

    async def register_options(
        self, account: AccountRow, session_hash: str, site: Site
    ) -> dict[str, Any]:
        mine = await self.passkeys(account)
        if len(mine) >= PASSKEYS_PER_ACCOUNT:
            raise self._too_many()
        challenge = await self._challenge("register", session_hash)
        options = generate_registration_options(
            rp_id=site.rp_id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=self._user_handle(account.id),
            challenge=challenge,
            timeout=CHALLENGE_SECONDS * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                require_resident_key=True,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=_unb64(p.credential_id)) for p in mine
            ],
        )
        return options_to_json_dict(options)

    @staticmethod
    def _too_many() -> ServiceError:
        return ServiceError(
            409,
            f"an account may have at most {PASSKEYS_PER_ACCOUNT} passkeys",
            "too_many_passkeys",
            limit=PASSKEYS_PER_ACCOUNT,
        )

    async def register(
        self,
        account: AccountRow,
        session_hash: str,
        site: Site,
        credential: dict[str, Any],
        label: str | None,
    ) -> PasskeyRow:
        try:
            name = clean_text(label, LABEL_LIMIT, what="A passkey's name") if label else ""
        except TextRefused as e:
            raise ServiceError(422, str(e), "bad_name", reason=e.reason, **e.extra) from None
        expected = await self._take(credential, "register", session_hash)
        try:
            verified = await asyncio.to_thread(
                verify_registration_response,
                credential=credential,
                expected_challenge=expected,
                expected_rp_id=site.rp_id,
                expected_origin=site.origin,
                require_user_verification=True,
            )
        except REFUSED:
            raise _bad() from None
        if len(verified.credential_public_key) > PUBLIC_KEY_BYTES:
            raise _bad("the passkey's public key is too large")
        transports: Sequence[str] = [
            t for t in credential.get("response", {}).get("transports", []) if t in _TRANSPORTS
        ]
        try:
            return await self.run_db(  # type: ignore[no-any-return]
                self.store.add,
                account.id,
                _b64(verified.credential_id),
                verified.credential_public_key,
                verified.sign_count,
                sorted(set(transports)),
                name,
                self.now(),
                PASSKEYS_PER_ACCOUNT,
            )
        except PasskeyRefused as e:
            if str(e) == "too many":
                raise self._too_many() from None
            raise ServiceError(409, "this passkey is registered already", "passkey_known") from None

    async def passkeys(self, account: AccountRow) -> list[PasskeyRow]:
        return await self.run_db(self.store.of_account, account.id)  # type: ignore[no-any-return]

    async def remove(self, account: AccountRow, passkey_id: int) -> None:
        if not await self.run_db(self.store.remove, account.id, passkey_id):
            raise ServiceError(404, "the account has no passkey with this id", "no_passkey")

    # ------------------------------------------------------------------ signing in

    async def sign_in_options(self) -> tuple[str, bytes]:
        """A new sign-in challenge and the one-time value the browser keeps for it
        (its cookie): only the browser that asked may answer it."""
        nonce = secrets.token_urlsafe(32)
        return nonce, await self._challenge("sign_in", _sha("nonce:" + nonce))

    @staticmethod
    def sign_in_request(challenge: bytes, site: Site) -> dict[str, Any]:
        options = generate_authentication_options(
            rp_id=site.rp_id,
            challenge=challenge,
            timeout=CHALLENGE_SECONDS * 1000,
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        return options_to_json_dict(options)

    async def verify(self, site: Site, credential: dict[str, Any], nonce: str | None) -> AccountRow:
        """The live account whose passkey signed this answer to this browser's
        challenge, or 401 ``bad_passkey``."""
        if not nonce or len(nonce) > 64:
            raise _bad("no sign-in with a passkey was asked for from this browser")
        if credential["id"] != credential["rawId"]:
            raise _bad()  # the id looked up must be the one signed for
        expected = await self._take(credential, "sign_in", _sha("nonce:" + nonce))
        passkey = await self.run_db(self.store.by_credential, credential["id"])
        if passkey is None:
            raise _bad()
        handle = credential["response"].get("userHandle")
        if handle and handle != _b64(self._user_handle(passkey.account_id)):
            raise _bad()  # the authenticator says it is someone else's
        try:
            verified = await asyncio.to_thread(
                verify_authentication_response,
                credential=credential,
                expected_challenge=expected,
                expected_rp_id=site.rp_id,
                expected_origin=site.origin,
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
                require_user_verification=True,
            )
        except REFUSED:
            raise _bad() from None
        # The counter moves from the value checked, or the answer does not count
        # (another answer signed with the same counter got in first: a clone).
        moved = await self.run_db(
            self.store.used,
            passkey.id,
            passkey.sign_count,
            verified.new_sign_count,
            self.now(),
        )
        if not moved:
            raise _bad()
        account = await self.run_db(self.account_of, passkey.account_id)
        if account is None or account.deleted:
            raise _bad()
        return account  # type: ignore[no-any-return]
