"""Passkeys (see :mod:`pitch.server.accounts.passkeys`): add, list and remove the
signed-in account's, and sign in with one without typing a name.

The relying party is this site as the server knows it: ``--public-url`` when set,
else the ``Host`` the request came to (the Guard lets a browser's change through only
when its ``Origin`` is that host), never a field of the body."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from pitch.server.accounts.passkeys import CHALLENGE_SECONDS, Site
from pitch.server.accounts.schemas import (
    Account,
    NewPasskey,
    Passkey,
    PasskeySignIn,
    PasswordConfirm,
)
from pitch.server.accounts.service import session_hash
from pitch.server.api.accounts import _account, _set_session
from pitch.server.api.deps import (
    _HOST,
    ERRORS,
    Limit,
    Networks,
    Service,
    SignedIn,
    _limits,
    session_id,
)
from pitch.server.api.guard import origin_of
from pitch.server.kernel.errors import ServiceError
from pitch.server.wiring import TableService
from pitch.store.accounts import AccountRow
from pitch.store.passkeys import PasskeyRow

PASSKEY_COOKIE = "pitch_passkey"
"""The browser that asked to sign in with a passkey: only it may answer the challenge."""
_COOKIE_PATH = "/api/session/passkey"

router = APIRouter(tags=["accounts"], responses={**ERRORS, 401: ERRORS[403]})


def passkey_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).passkeys, who, "too many passkey requests; wait a minute")


PasskeyLimit = Annotated[Limit, Depends(passkey_limit)]


def get_site(req: Request, svc: Service) -> Site:
    public = svc.settings.public_url
    if public:
        origin = origin_of(public)
    else:
        host = req.headers.get("host", "")
        if not _HOST.fullmatch(host):
            raise ServiceError(422, "the request named no usable host", "bad_request")
        origin = f"{req.url.scheme}://{host}".lower()
    rp_id = urlsplit(origin).hostname or ""
    return Site(rp_id=rp_id, origin=origin)


SiteOf = Annotated[Site, Depends(get_site)]


def _shown(p: PasskeyRow) -> Passkey:
    return Passkey(id=p.id, label=p.label, created_at=p.created_at, last_used=p.last_used)


def _session_hash(req: Request) -> str:
    sid = session_id(req)
    assert sid is not None  # SignedIn came first
    return session_hash(sid)


@router.post("/api/account/passkeys/options")
async def passkey_creation_options(
    body: PasswordConfirm,
    account: SignedIn,
    req: Request,
    svc: Service,
    site: SiteOf,
    who: Networks,
    limit: PasskeyLimit,
) -> dict[str, Any]:
    """Options for ``navigator.credentials.create()`` (WebAuthn's JSON form) to add a
    passkey to the signed-in account; the current password is asked for (401
    ``bad_login``). The challenge is this session's, for 5 minutes, once. 409
    ``too_many_passkeys``."""
    limit.take()
    await svc.accounts.check_password(account, body.password, who)
    return await svc.accounts.passkeys.register_options(account, _session_hash(req), site)


@router.post("/api/account/passkeys", status_code=201, responses={409: ERRORS[409]})
async def add_passkey(
    body: NewPasskey, account: SignedIn, req: Request, svc: Service, site: SiteOf
) -> Passkey:
    """Add the passkey the browser made with the options above. 401 ``bad_passkey``
    (the challenge is not this session's, used or expired; the origin or the
    relying party is another site's; the user was not verified), 409
    ``too_many_passkeys``, ``passkey_known``."""
    row = await svc.accounts.passkeys.register(
        account, _session_hash(req), site, body.credential.as_json(), body.label
    )
    return _shown(row)


@router.get("/api/account/passkeys")
async def list_passkeys(account: SignedIn, svc: Service) -> list[Passkey]:
    """The signed-in account's passkeys (never a key or a credential id)."""
    return [_shown(p) for p in await svc.accounts.passkeys.passkeys(account)]


@router.delete("/api/account/passkeys/{passkey_id}", status_code=204)
async def remove_passkey(
    account: SignedIn,
    svc: Service,
    passkey_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)],
) -> None:
    """Remove one of the account's passkeys (404 ``no_passkey``). The session is
    enough: removing takes a way in away and never gives one (the password stays)."""
    await svc.accounts.passkeys.remove(account, passkey_id)


@router.post("/api/session/passkey/options")
async def passkey_request_options(
    resp: Response, req: Request, svc: Service, site: SiteOf, limit: PasskeyLimit
) -> dict[str, Any]:
    """Options for ``navigator.credentials.get()`` to sign in with a passkey (no name:
    the authenticator offers the passkeys it holds for this site). The challenge is
    this browser's (a short-lived cookie), for 5 minutes, once."""
    limit.take()
    nonce, challenge = await svc.accounts.passkeys.sign_in_options()
    resp.set_cookie(
        PASSKEY_COOKIE,
        nonce,
        max_age=CHALLENGE_SECONDS,
        path=_COOKIE_PATH,
        secure=req.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return svc.accounts.passkeys.sign_in_request(challenge, site)


@router.post("/api/session/passkey")
async def sign_in_with_passkey(
    body: PasskeySignIn, req: Request, resp: Response, svc: Service, site: SiteOf, who: Networks
) -> Account:
    """Sign in with a passkey: the same session cookie as a password sign-in. 401
    ``bad_passkey`` (one answer for every refusal), counted against the address as
    failed password sign-ins are; 429 ``too_many_attempts``."""
    signed = await svc.accounts.passkeys.sign_in(
        site, body.credential.as_json(), req.cookies.get(PASSKEY_COOKIE), who
    )
    await svc.accounts.sign_out(session_id(req))
    linked = await _link(svc, signed.account, body)
    _set_session(req, resp, svc, signed)
    resp.delete_cookie(PASSKEY_COOKIE, path=_COOKIE_PATH, httponly=True, samesite="strict")
    return await _account(svc, signed.account, linked)


async def _link(svc: TableService, account: AccountRow, body: PasskeySignIn) -> int:
    return await svc.accounts.link_seats(account, [(s.table, s.token) for s in body.seats])
