"""The accounts API's request and answer shapes (docs/server.md, "Accounts")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pitch.server.kernel.text import NAME_INPUT

MAX_HELD_SEATS = 50
"""Seat tokens one sign-up or sign-in may bring along: a browser's own tables and games
(its "My tables" keeps fewer), each one row to update."""

PASSWORD_INPUT = 1024
"""Characters a request's password field may have at all; the rule (8 to 256) is the
room's, which answers ``bad_password`` in words a client shows."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HeldSeat(_In):
    table: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]
    token: Annotated[str, Field(min_length=1, max_length=64)]
    """The seat's token, as the claim answered it."""


class Credentials(_In):
    name: Annotated[str, Field(max_length=NAME_INPUT)]
    """The account's name: the seat name rule (at most 32 characters, no invisible
    characters, one script a word, not a bot's), unique without case and look-alikes."""
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """8 to 256 characters (compared after NFKC)."""
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_HELD_SEATS)] = Field(default_factory=list)
    """Seats this browser holds as a guest: they become the account's."""


class PasswordChange(_In):
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """The current password."""
    new_password: Annotated[str, Field(max_length=PASSWORD_INPUT)]


class PasswordCheck(_In):
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """The current password (deleting an account asks for it)."""


class Rating(BaseModel):
    """One rating as people see it (docs/server.md, "Ratings")."""

    rating: int
    provisional: bool
    """Fewer games of this kind than a settled rating needs."""
    games: int
    wins: int
    left: int
    """Games the player left, that a stand-in bot finished (each counted a loss)."""


class Account(BaseModel):
    name: str
    ratings: dict[str, Rating] = Field(default_factory=dict)
    """The account's ratings by kind of table (``headsup``, ``solo``, ``partnership``):
    only the kinds it has played rated games of."""
    seats_linked: int | None = None
    """On sign-up and sign-in: how many of the seats sent became the account's."""


# ---------------------------------------------------------------------- passkeys

B64_PATTERN = r"^[A-Za-z0-9_-]*$"
"""base64url without padding, as WebAuthn's JSON forms write bytes."""


def _b64(most: int) -> Any:
    return Field(min_length=1, max_length=most, pattern=B64_PATTERN)


CREDENTIAL_ID = 1366
"""Characters of a credential id: WebAuthn's 1,023 bytes, in base64url."""


class _Credential(BaseModel):
    # The browser's JSON forms carry more fields than these (``publicKey``...): they
    # are dropped, not refused; each field read is bounded.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class AttestationIn(_Credential):
    client_data_json: Annotated[str, _b64(4096)] = Field(alias="clientDataJSON")
    attestation_object: Annotated[str, _b64(16384)] = Field(alias="attestationObject")
    transports: Annotated[list[Annotated[str, Field(max_length=32)]], Field(max_length=8)] = Field(
        default_factory=list
    )


class AssertionIn(_Credential):
    client_data_json: Annotated[str, _b64(4096)] = Field(alias="clientDataJSON")
    authenticator_data: Annotated[str, _b64(4096)] = Field(alias="authenticatorData")
    signature: Annotated[str, _b64(1024)]
    user_handle: Annotated[str, Field(max_length=128, pattern=B64_PATTERN)] | None = Field(
        default=None, alias="userHandle"
    )


class _CredentialIn(_Credential):
    id: Annotated[str, _b64(CREDENTIAL_ID)]
    raw_id: Annotated[str, _b64(CREDENTIAL_ID)] = Field(alias="rawId")
    type: Literal["public-key"]
    authenticator_attachment: Annotated[str, Field(max_length=32)] | None = Field(
        default=None, alias="authenticatorAttachment"
    )

    def as_json(self) -> dict[str, Any]:
        """The credential as py_webauthn reads it (WebAuthn's JSON names)."""
        out: dict[str, Any] = self.model_dump(by_alias=True, exclude_none=True)
        out["clientExtensionResults"] = {}
        return out


class RegistrationCredential(_CredentialIn):
    response: AttestationIn


class AuthenticationCredential(_CredentialIn):
    response: AssertionIn


class PasswordConfirm(_In):
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """The current password: adding a way in asks for it (a stolen session alone
    cannot add a passkey that outlives a password change)."""


class NewPasskey(_In):
    credential: RegistrationCredential
    """What ``navigator.credentials.create()`` answered, in WebAuthn's JSON form."""
    label: Annotated[str, Field(max_length=NAME_INPUT)] | None = None
    """A name for it (at most 40 characters, the text rule); none: the list shows its date."""


class PasskeySignIn(_In):
    credential: AuthenticationCredential
    """What ``navigator.credentials.get()`` answered, in WebAuthn's JSON form."""
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_HELD_SEATS)] = Field(default_factory=list)
    """Seats this browser holds as a guest: they become the account's."""


class Passkey(BaseModel):
    id: int
    label: str
    """Its name; empty when none was given."""
    created_at: datetime
    last_used: datetime | None
    """Its last sign-in; ``None``: never used to sign in."""
