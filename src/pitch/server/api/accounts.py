"""Accounts (optional; guests play as before): sign up, sign in and out, the signed-in
account, its password, its deletion and its data (see :mod:`pitch.server.accounts`).

The session is a cookie: HttpOnly, SameSite=Lax, Secure when the request came over
TLS (or a trusted proxy says so), a new id at every sign-in."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from pitch.server.accounts.schemas import (
    Account,
    Credentials,
    PasswordChange,
    PasswordCheck,
    Rating,
)
from pitch.server.accounts.service import Signed
from pitch.server.api.deps import (
    ERRORS,
    SESSION_COOKIE,
    Limit,
    Networks,
    ReadLimit,
    Service,
    SignedIn,
    session_id,
    signup_limit,
)
from pitch.server.wiring import TableService
from pitch.store.accounts import AccountRow

DEVICE_COOKIE = "pitch_device"
DEVICE_DAYS = 365

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
    body: Credentials, req: Request, resp: Response, svc: Service, limit: SignupLimit
) -> Account:
    """Make an account and sign in (the session cookie). The seats in ``seats`` (this
    browser's, as a guest) become the account's. 409 ``name_in_use``; 422
    ``bad_name``, ``name_reserved``, ``bad_password``; 429: too many accounts made
    from this address."""
    limit.take()
    signed = await svc.accounts.sign_up(body.name, body.password)
    linked = await svc.accounts.link_seats(signed.account, [(s.table, s.token) for s in body.seats])
    _set_session(req, resp, svc, signed)
    return await _account(svc, signed.account, linked)


@router.post("/api/session")
async def sign_in(
    body: Credentials, req: Request, resp: Response, svc: Service, who: Networks
) -> Account:
    """Sign in: a new session cookie (any session cookie sent along is not reused).
    401 ``bad_login``, the same answer for an unknown name and a wrong password;
    429 ``too_many_attempts`` (``Retry-After``) after failed ones."""
    signed = await svc.accounts.sign_in(
        body.name, body.password, who, req.cookies.get(DEVICE_COOKIE)
    )
    await svc.accounts.sign_out(session_id(req))  # the one this browser had, if any
    linked = await svc.accounts.link_seats(signed.account, [(s.table, s.token) for s in body.seats])
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
