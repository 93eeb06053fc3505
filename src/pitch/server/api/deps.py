"""What the routes share: the service, the client's identity and its rate limits,
the invite links' base, and the path and error shapes of the OpenAPI document."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, cast

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from pitch.server.accounts.passkeys import PASSKEY_OPTIONS_PER_MINUTE
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.limits import (
    KeyedBuckets,
    client_key,
    client_networks,
    client_site,
    network_key,
)
from pitch.server.kernel.schemas import Problem
from pitch.server.settings import Settings
from pitch.server.wiring import TableService
from pitch.store.accounts import AccountRow

TableId = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]
ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem},
    403: {"model": Problem},
    409: {"model": Problem},
    422: {"model": Problem},
    429: {"model": Problem},
}
_HOST = re.compile(
    r"(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?"
)


def _buckets(per_minute: float) -> KeyedBuckets:
    return KeyedBuckets(rate=per_minute / 60.0, burst=max(1.0, per_minute))


@dataclass(frozen=True)
class Limits:
    """Per-client rates of the costly requests (``app.state.limits``)."""

    creations: KeyedBuckets
    checks: KeyedBuckets
    hands: KeyedBuckets
    """Hands of records checked: what a check costs grows with them, not with calls."""
    reads: KeyedBuckets
    """Reads of tables and game lists, which may go to the store."""
    seats: KeyedBuckets
    """Seats claimed or left: writes to the store."""
    signups: KeyedBuckets
    """Accounts made (``signups_per_hour``)."""
    analyses: KeyedBuckets
    """New analysis jobs (a stored analysis is free)."""
    passkeys: KeyedBuckets
    """Passkey challenges asked for (``PASSKEY_OPTIONS_PER_MINUTE``): each is a row."""

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(
            creations=_buckets(settings.table_creations_per_minute),
            checks=_buckets(settings.record_checks_per_minute),
            hands=_buckets(settings.record_hands_per_minute),
            reads=_buckets(settings.reads_per_minute),
            seats=_buckets(settings.seat_changes_per_minute),
            signups=KeyedBuckets(
                rate=settings.signups_per_hour / 3600.0, burst=settings.signups_per_hour
            ),
            analyses=_buckets(settings.analyses_per_minute),
            passkeys=_buckets(PASSKEY_OPTIONS_PER_MINUTE),
        )


def get_service(conn: HTTPConnection) -> TableService:
    return cast(TableService, conn.app.state.service)


def get_client(conn: HTTPConnection) -> str:
    """Who is asking, for limits and table ownership: the client's address, keyed."""
    secret = cast(bytes, conn.app.state.client_secret)
    return client_key(conn.client.host if conn.client else None, secret)


def get_site(conn: HTTPConnection) -> str:
    """The client's /24 (IPv4) or /48 (IPv6), keyed (``limits.client_site``)."""
    secret = cast(bytes, conn.app.state.client_secret)
    return network_key(client_site(conn.client.host if conn.client else None), secret)


def get_networks(conn: HTTPConnection) -> list[tuple[str, float]]:
    """The keys the per-client rates count the client by, with their budgets' factors:
    its own (an IPv6 client's /64), and an IPv6 client's /56 and /48 besides."""
    secret = cast(bytes, conn.app.state.client_secret)
    host = conn.client.host if conn.client else None
    return [(network_key(n, secret), f) for n, f in client_networks(host)]


Service = Annotated[TableService, Depends(get_service)]
Client = Annotated[str, Depends(get_client)]
Networks = Annotated[list[tuple[str, float]], Depends(get_networks)]


SESSION_COOKIE = "pitch_session"


def session_id(req: Request) -> str | None:
    return req.cookies.get(SESSION_COOKIE)


async def maybe_signed_in(req: Request, svc: Service) -> AccountRow | None:
    """The signed-in account, or ``None`` for a guest (no cookie: no database read)."""
    sid = session_id(req)
    if sid is None:
        return None
    account = await svc.accounts.signed_in(sid)
    if account is not None:
        await svc.social.seen(account.id)  # presence: a write at most once a minute
    return account


async def signed_in(
    account: Annotated[AccountRow | None, Depends(maybe_signed_in)],
) -> AccountRow:
    if account is None:
        raise ServiceError(401, "not signed in", "signed_out")
    return account


MaybeSignedIn = Annotated[AccountRow | None, Depends(maybe_signed_in)]
SignedIn = Annotated[AccountRow, Depends(signed_in)]


class Limit:
    """One client's rate limit for one kind of request. The route takes it with
    :meth:`take` once FastAPI has validated the request: a dependency runs before
    that, and a malformed request must not spend the client's allowance."""

    def __init__(
        self, buckets: KeyedBuckets, client: list[tuple[str, float]], refusal: str
    ) -> None:
        self._buckets, self._client, self._refusal = buckets, client, refusal

    def take(self, n: float = 1.0) -> None:
        if not self._buckets.take_all(self._client, n):
            raise ServiceError(429, self._refusal)

    def allowance(self) -> float:
        """What :meth:`take` would grant now (the least any of the client's keys has)."""
        return self._buckets.available(self._client)


def _limits(conn: HTTPConnection) -> Limits:
    return cast(Limits, conn.app.state.limits)


def creation_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).creations, who, "too many tables created; wait a minute")


def check_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).checks, who, "too many records checked; wait a minute")


def hands_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).hands, who, "too many hands checked; wait a minute")


def read_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).reads, who, "too many tables and lists read; wait a minute")


def seat_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).seats, who, "too many seats taken or left; wait a minute")


def signup_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).signups, who, "too many accounts made; wait an hour")


def passkey_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).passkeys, who, "too many passkey requests; wait a minute")


def analysis_limit(conn: HTTPConnection, who: Networks) -> Limit:
    return Limit(_limits(conn).analyses, who, "too many games analysed; wait a minute")


AnalysisLimit = Annotated[Limit, Depends(analysis_limit)]
CreationLimit = Annotated[Limit, Depends(creation_limit)]
CheckLimit = Annotated[Limit, Depends(check_limit)]
HandsLimit = Annotated[Limit, Depends(hands_limit)]
ReadLimit = Annotated[Limit, Depends(read_limit)]
SeatLimit = Annotated[Limit, Depends(seat_limit)]


def get_base_url(req: Request, svc: Service) -> str:
    """Invite links' base: ``--public-url``, else the address the client used if it
    is a plain host[:port] (never arbitrary text from a ``Host`` header), else the
    address the server listens on."""
    public = svc.settings.public_url
    if public:
        return public.rstrip("/")
    host = req.headers.get("host", "")
    if not _HOST.fullmatch(host):
        server = req.scope.get("server") or ("127.0.0.1", 8000)
        host = f"{server[0]}:{server[1]}"
    return f"{req.url.scheme}://{host}"


BaseUrl = Annotated[str, Depends(get_base_url)]


def ws_url(base: str, table_id: str) -> str:
    """The table socket's address, for a seat's holder."""
    return f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}"
