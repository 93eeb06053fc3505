"""Accounts (optional; guests play as before): sign up, sign in and out, the signed-in
account, its password, its deletion and its data (see :mod:`pitch.server.accounts`).

The session is a cookie: HttpOnly, SameSite=Lax, Secure when the request came over
TLS (or a trusted proxy says so), a new id at every sign-in."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam

from pitch.server.accounts.passkeys import CHALLENGE_SECONDS, Site
from pitch.server.accounts.schemas import (
    Account,
    Credentials,
    NewPasskey,
    Passkey,
    PasskeySignIn,
    PasswordChange,
    PasswordCheck,
    PasswordConfirm,
    Rating,
)
from pitch.server.accounts.service import Signed, session_hash
from pitch.server.api.deps import (
    _HOST,
    ERRORS,
    SESSION_COOKIE,
    Client,
    Limit,
    Networks,
    ReadLimit,
    Service,
    SignedIn,
    passkey_limit,
    session_id,
    signup_limit,
)
from pitch.server.api.guard import origin_of
from pitch.server.kernel.errors import ServiceError
from pitch.server.wiring import TableService
from pitch.store.accounts import AccountRow
from pitch.store.passkeys import PasskeyRow

DEVICE_COOKIE = "pitch_device"
DEVICE_DAYS = 365
SIGNED_COOKIE = "pitch_signed_in"
"""Beside the session cookie, with its lifetime: "1", no secret, readable by the page
(the session's is not), so that a page asks ``GET /api/account`` only where a session
may be and a guest's page load costs no request (docs/web.md)."""

router = APIRouter(tags=["accounts"], responses={**ERRORS, 401: ERRORS[403]})


SignupLimit = Annotated[Limit, Depends(signup_limit)]


def _secure(req: Request) -> bool:
    # uvicorn's proxy middleware sets the scheme from a trusted proxy's X-Forwarded-Proto.
    return req.url.scheme == "https"


def _set_session(
    req: Request, resp: Response, svc: Service, signed: Signed, *, device: bool = True
) -> None:
    days = svc.accounts.limits.session_days
    resp.set_cookie(
        SESSION_COOKIE,
        signed.session_id,
        max_age=int(days * 86400),
        path="/",
        secure=_secure(req),
        httponly=True,
        samesite="lax",
    )
    resp.set_cookie(
        SIGNED_COOKIE,
        "1",
        max_age=int(days * 86400),
        path="/",
        secure=_secure(req),
        httponly=False,
        samesite="lax",
    )
    if not device:
        return
    resp.set_cookie(
        DEVICE_COOKIE,
        svc.accounts.device_token(signed.account),
        max_age=DEVICE_DAYS * 86400,
        path="/api/session",
        secure=_secure(req),
        httponly=True,
        samesite="strict",
    )


def _clear_session(req: Request, resp: Response) -> None:
    resp.delete_cookie(SESSION_COOKIE, path="/", secure=_secure(req), httponly=True, samesite="lax")
    resp.delete_cookie(SIGNED_COOKIE, path="/", secure=_secure(req), samesite="lax")


async def _account(svc: TableService, a: AccountRow, linked: int | None = None) -> Account:
    """The account as its player sees it, with its ratings from the ratings room."""
    ratings = {
        r.kind: Rating(
            rating=r.rating, provisional=r.provisional, games=r.games, wins=r.wins, left=r.left
        )
        for r in await svc.ratings.ratings_of(a.id)
    }
    return Account(name=a.name, ratings=ratings, seats_linked=linked)


@router.post("/api/accounts", status_code=201, responses={409: ERRORS[409]})
async def sign_up(
    body: Credentials,
    req: Request,
    resp: Response,
    svc: Service,
    limit: SignupLimit,
    client: Client,
) -> Account:
    """Make an account and sign in (the session cookie). The seats in ``seats`` (this
    browser's, as a guest) become the account's. 409 ``name_in_use``; 422
    ``bad_name``, ``name_reserved``, ``bad_password``; 429: too many accounts made
    from this address."""
    limit.take()
    signed = await svc.accounts.sign_up(body.name, body.password)
    linked = await svc.accounts.link_seats(
        signed.account, [(s.table, s.token) for s in body.seats], client
    )
    _set_session(req, resp, svc, signed)
    return await _account(svc, signed.account, linked)


@router.post("/api/session")
async def sign_in(
    body: Credentials,
    req: Request,
    resp: Response,
    svc: Service,
    who: Networks,
    client: Client,
) -> Account:
    """Sign in: a new session cookie (any session cookie sent along is not reused).
    401 ``bad_login``, the same answer for an unknown name and a wrong password;
    429 ``too_many_attempts`` (``Retry-After``) after failed ones."""
    signed = await svc.accounts.sign_in(
        body.name, body.password, who, req.cookies.get(DEVICE_COOKIE)
    )
    await svc.accounts.sign_out(session_id(req))  # the one this browser had, if any
    linked = await svc.accounts.link_seats(
        signed.account, [(s.table, s.token) for s in body.seats], client
    )
    _set_session(req, resp, svc, signed)
    return await _account(svc, signed.account, linked)


@router.delete("/api/session", status_code=204)
async def sign_out(req: Request, resp: Response, svc: Service) -> None:
    """Sign out: the session ends on the server (its id is worth nothing from now on)
    and the cookie is deleted. Signed out already: the same."""
    await svc.accounts.sign_out(session_id(req))
    _clear_session(req, resp)


@router.delete("/api/sessions", status_code=204)
async def sign_out_everywhere(
    account: SignedIn, req: Request, resp: Response, svc: Service
) -> None:
    """Sign out everywhere: every session of the account ends, this one too."""
    await svc.accounts.sign_out_everywhere(account)
    _clear_session(req, resp)


@router.get("/api/account")
async def get_account(account: SignedIn, req: Request, resp: Response, svc: Service) -> Account:
    """The signed-in account (401 ``signed_out`` for a guest)."""
    # The cookie's Max-Age slides with the session's expiry on the server.
    sid = session_id(req)
    assert sid is not None
    _set_session(req, resp, svc, Signed(account, sid), device=False)
    return await _account(svc, account)


@router.post("/api/account/password")
async def change_password(
    body: PasswordChange,
    account: SignedIn,
    req: Request,
    resp: Response,
    svc: Service,
    who: Networks,
) -> Account:
    """Change the password (the current one is asked for): every session of the
    account ends, and this browser gets a new one."""
    signed = await svc.accounts.change_password(account, body.password, body.new_password, who)
    _set_session(req, resp, svc, signed)
    return await _account(svc, signed.account)


@router.delete("/api/account", status_code=204)
async def delete_account(
    body: PasswordCheck,
    account: SignedIn,
    req: Request,
    resp: Response,
    svc: Service,
    who: Networks,
) -> None:
    """Delete the account (the password is asked for): its sessions end, its games
    stay under the name "deleted player N", the name stays taken."""
    await svc.accounts.delete(account, body.password, who)
    _clear_session(req, resp)


@router.get("/api/account/export")
async def export_account(account: SignedIn, svc: Service, reads: ReadLimit) -> dict[str, Any]:
    """Everything the server stores about the account, as JSON: the account, its
    sessions (their times, never an id), the seats it took and their tables, and
    (``social``) its friends, requests, blocks, invites and the reports it filed."""
    reads.take()
    data = await svc.accounts.export(account)
    data["social"] = await svc.social.export(account)
    return data


# ---------------------------------------------------------------------- passkeys
# (pitch.server.accounts.passkeys). The relying party is this site as the server knows
# it: ``--public-url`` when set, else the ``Host`` the request came to (the Guard lets
# a browser's change through only when its ``Origin`` is that host), never a field of
# the body.

PASSKEY_COOKIE = "pitch_passkey"
"""The browser that asked to sign in with a passkey: only it may answer the challenge."""
_PASSKEY_PATH = "/api/session/passkey"


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
        path=_PASSKEY_PATH,
        secure=req.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return svc.accounts.passkeys.sign_in_request(challenge, site)


@router.post("/api/session/passkey")
async def sign_in_with_passkey(
    body: PasskeySignIn,
    req: Request,
    resp: Response,
    svc: Service,
    site: SiteOf,
    who: Networks,
    client: Client,
) -> Account:
    """Sign in with a passkey: the same session cookie as a password sign-in. 401
    ``bad_passkey`` (one answer for every refusal), counted against the address as
    failed password sign-ins are; 429 ``too_many_attempts``."""
    signed = await svc.accounts.passkey_sign_in(
        site, body.credential.as_json(), req.cookies.get(PASSKEY_COOKIE), who
    )
    await svc.accounts.sign_out(session_id(req))
    linked = await _link(svc, signed.account, body, client)
    _set_session(req, resp, svc, signed)
    resp.delete_cookie(PASSKEY_COOKIE, path=_PASSKEY_PATH, httponly=True, samesite="strict")
    return await _account(svc, signed.account, linked)


async def _link(svc: TableService, account: AccountRow, body: PasskeySignIn, client: str) -> int:
    return await svc.accounts.link_seats(account, [(s.table, s.token) for s in body.seats], client)
