"""What every request passes before the app sees it (docs/server.md, "Security model").

- :class:`Guard` (ASGI middleware): requests that change something (``POST``...) must be
  JSON (a cross-site form or a body-less ``fetch`` cannot send that without asking
  first) and, when a browser says where it comes from (``Origin``), come from this
  site or one the operator allows; the same Origin check for WebSockets. A body may be
  at most ``max_body`` bytes and must arrive within ``body_seconds``. Every answer
  carries a strict Content-Security-Policy and the headers that keep the pages out of
  frames and stop type sniffing.
- :class:`GuardedHttp` (uvicorn's protocol, one per TCP connection): a connection must
  finish its request headers within ``header_seconds`` (no slow-loris), and one
  address may hold at most ``per_address`` connections at a time (a trusted proxy's
  address is not counted: behind one, the app counts clients by their forwarded
  address instead).
- :class:`ForwardedFor` (ASGI middleware): a trusted proxy's ``X-Forwarded-For`` names
  the client (uvicorn's own middleware reads it), unless what it names is not an
  address: then the client is the proxy, and the server says so in its log.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pitch.server.kernel.errors import HTTP_CODES
from pitch.server.kernel.limits import client_address

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The policy of every page: scripts and styles only from this server's own files."""

DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
"""``/docs``: Swagger UI sets inline styles (its scripts are still only our own files)."""

HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

log = logging.getLogger("pitch.server")


def origin_of(url: str) -> str:
    """``https://pitch.example/x`` -> ``https://pitch.example`` (lower case)."""
    u = urlsplit(url.strip())
    return f"{u.scheme}://{u.netloc}".lower()


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_origins: Iterable[str] = (),
        max_body: int = 64 * 1024,
        large_bodies: dict[str, int] | None = None,
        body_seconds: float = 10.0,
    ) -> None:
        self.app = app
        self.allowed = frozenset(origin_of(o) for o in allowed_origins if o.strip())
        self.max_body = max_body
        self.large = large_bodies or {}
        self.body_seconds = body_seconds

    def origin_ok(self, scope: Scope) -> bool:
        """No ``Origin`` (not a browser, or a same-origin GET): fine. Otherwise it must
        be an allowed origin or this very site (its host is the ``Host`` asked for)."""
        headers = dict(scope.get("headers") or ())
        origin = headers.get(b"origin")
        if origin is None:
            return headers.get(b"sec-fetch-site") not in (b"cross-site", b"same-site")
        text = origin.decode("latin-1").lower()
        if text in self.allowed:
            return True
        host = headers.get(b"host", b"").decode("latin-1").lower()
        return bool(host) and urlsplit(text).netloc == host and text.startswith("http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not self.origin_ok(scope):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # an HTTP 403
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        if scope["method"] not in SAFE_METHODS:
            if not self.origin_ok(scope):
                await _answer(send, 403, "this request came from another site", "other_site")
                return
            headers = dict(scope.get("headers") or ())
            ctype = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if ctype != b"application/json":
                await _answer(send, 415, "send JSON (Content-Type: application/json)", "not_json")
                return
            limit = self.large.get(scope["path"], self.max_body)
            body = await self._read_body(receive, headers, limit, send)
            if body is None:
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    async def _read_body(
        self, receive: Receive, headers: dict[bytes, bytes], limit: int, send: Send
    ) -> bytes | None:
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _answer(send, 413, f"the body may be at most {limit} bytes", "too_large")
            return None
        parts: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds
        while True:
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await _answer(
                    send, 408, f"the body must arrive within {self.body_seconds:g} s", "too_slow"
                )
                return None
            if msg["type"] != "http.request":
                return None  # the client went away
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _answer(send, 413, f"the body may be at most {limit} bytes", "too_large")
                return None
            parts.append(chunk)
            if not msg.get("more_body", False):
                return b"".join(parts)

    @staticmethod
    def _with_headers(scope: Scope, send: Send) -> Send:
        csp = DOCS_CSP if scope["path"] == "/docs" else CSP

        async def wrapped(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [
                    *msg.get("headers", []),
                    (b"content-security-policy", csp.encode()),
                    *HEADERS,
                ]
            await send(msg)

        return wrapped


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # http.disconnect, when it comes

    return again


async def _answer(send: Send, status: int, detail: str, code: str) -> None:
    assert code in HTTP_CODES, code
    body = json.dumps({"detail": detail, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body})


class ForwardedFor:
    """The client a trusted proxy's ``X-Forwarded-For`` names (``--forwarded-allow-ips``),
    read by uvicorn's ``ProxyHeadersMiddleware``, as long as it is an IP address: uvicorn
    takes any text, and each new text was a new client to every per-client limit. Such
    a request counts as the proxy's own address (every client behind it shares that
    budget until the proxy is mended), and the log says so, once a minute at most."""

    PEER = "pitch.peer"
    """The scope key of the TCP peer's address while uvicorn's middleware runs."""

    def __init__(self, app: ASGIApp, *, trusted: Iterable[str], log_every: float = 60.0) -> None:
        self.app = app
        self._proxy = ProxyHeadersMiddleware(self._checked, trusted_hosts=list(trusted))  # type: ignore[arg-type]
        self.log_every = log_every
        self._logged_at: float | None = None
        self._unlogged = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope[self.PEER] = scope.get("client")
        await self._proxy(scope, receive, send)  # type: ignore[arg-type]

    async def _checked(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.pop(self.PEER, None)
        client = scope.get("client")
        if client is not None and client != peer:
            try:
                ipaddress.ip_address(client[0])
            except ValueError:
                scope["client"] = peer
                self._log(client[0], peer[0] if peer else "?")
        await self.app(scope, receive, send)

    def _log(self, forwarded: str, proxy: str) -> None:
        now = time.monotonic()
        if self._logged_at is not None and now - self._logged_at < self.log_every:
            self._unlogged += 1
            return
        more = f" ({self._unlogged} more since the last such line)" if self._unlogged else ""
        log.warning(
            "proxy %s forwarded a client address that is not one, %r: counted as the proxy's own%s",
            proxy,
            forwarded[:64],
            more,
        )
        self._logged_at, self._unlogged = now, 0


# ------------------------------------------------------------------ connections


class ConnectionLimits:
    """Open connections per address, shared by every connection of one server."""

    def __init__(self, *, per_address: int, header_seconds: float, trusted: Iterable[str]) -> None:
        self.per_address = per_address
        self.header_seconds = header_seconds
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]
        self.trust_all = "*" in trusted
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self._admitted = 0

    def is_trusted(self, host: str) -> bool:
        if self.trust_all:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def admit(self, host: str | None, transport: asyncio.BaseTransport) -> bool:
        if host is None or self.is_trusted(host):
            return True
        self._admitted += 1
        if self._admitted % 4096 == 0:
            self._prune()
        key = client_address(host)
        conns = self.open.setdefault(key, set())
        # A connection that became a WebSocket belongs to another protocol object
        # now: count what is still open rather than rely on our own close callback.
        conns.difference_update([c for c in conns if c.is_closing()])
        if len(conns) >= self.per_address:
            return False
        conns.add(transport)
        return True

    def _prune(self) -> None:
        """Forget closed connections of every address (those that became WebSockets
        are not released by this protocol), so addresses seen once do not pile up."""
        for key, conns in list(self.open.items()):
            conns.difference_update([c for c in conns if c.is_closing()])
            if not conns:
                del self.open[key]

    def release(self, host: str | None, transport: asyncio.BaseTransport) -> None:
        if host is None:
            return
        key = client_address(host)
        conns = self.open.get(key)
        if conns is not None:
            conns.discard(transport)
            if not conns:
                del self.open[key]


def guarded_http(limits: ConnectionLimits) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with the header timeout and the per-address cap."""

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _host: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._host = self.client[0] if self.client else None
            if not limits.admit(self._host, transport):
                self._host = None  # not counted
                transport.write(
                    b"HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\n"
                    b"connection: close\r\n\r\n"
                )
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(limits.header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            limits.release(self._host, self.transport)
            super().connection_lost(exc)

    return GuardedHttp
