"""The process's file descriptors and its WebSockets (docs/server.md, "Security model").

- :func:`raise_nofile`: the soft limit on open files goes up to the hard one at start-up
  (a server kept the 1024 it inherited: four addresses holding 250 idle sockets each
  left no descriptor for ``/api/health`` or a new player).
- :func:`socket_cap`: how many WebSockets that limit leaves room for, after a reserve for
  the process itself, the database, the bot workers and plain requests.
- :func:`guarded_ws`: uvicorn's WebSocket protocol with that cap, a small kernel send
  buffer, and a reset (not a close handshake) for a client that is gone or reads
  nothing, so that neither its descriptor nor the kernel's buffers outlive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import resource
import socket
import struct
from asyncio import BaseTransport, Transport
from collections.abc import Callable
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

log = logging.getLogger("pitch.server")

SEND_BUFFER = 64 * 1024
"""Kernel send buffer of a WebSocket (``SO_SNDBUF``). Left to the kernel's autotuning, a
client that never reads soaked up about 1 MB at the server before the server noticed."""
MAX_UNSENT = 128 * 1024
"""Bytes a socket may keep waiting to go out (its transport's buffer and its queue)
for ``Settings.slow_reader_seconds`` before it is cut."""
WIRE = "pitch.wire"
"""The scope extension that hands the socket's :class:`guarded_ws` protocol to the app."""

BASE_FDS = 64
"""The process itself: libraries, logs, the event loop, the listening socket, SQLite's
files, a static file being sent."""
WORKER_FDS = 4
"""Pipes to one bot worker process."""
DB_FDS = 12
"""The database pool at its largest (``pitch.store.db``: 8 and 4 more)."""


def raise_nofile() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard one: ``(before, now)``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if want <= soft:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):  # above the kernel's nr_open: keep what we have
        return soft, soft
    return soft, want


def request_reserve(nofile: int) -> int:
    """Descriptors kept from WebSockets for plain requests (health checks, new
    players creating and joining tables)."""
    return max(32, nofile // 16)


def socket_cap(nofile: int, bot_workers: int, wanted: int = 0) -> int:
    """The most WebSockets ``nofile`` open files leave room for, or ``wanted`` (an
    operator's ``PITCH_MAX_SOCKETS``) if it fits; ``ValueError`` if it does not."""
    room = nofile - BASE_FDS - WORKER_FDS * bot_workers - DB_FDS - request_reserve(nofile)
    if room < 1:
        raise ValueError(f"the open-files limit ({nofile}) leaves no room for sockets")
    if wanted > room:
        raise ValueError(
            f"PITCH_MAX_SOCKETS ({wanted}) is more than the open-files limit ({nofile}) "
            f"leaves room for ({room}); raise the limit (ulimit -n) or lower it"
        )
    return wanted or room


TRIM_AFTER = 500
"""Sockets closed since the last :func:`trim` that make another worth its milliseconds."""


def _malloc_trim() -> Any:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


def trim() -> None:
    """Give the C heap's free pages back to the system (glibc keeps them otherwise:
    a burst of sockets left the process that much larger after they closed)."""
    if _TRIM is not None:
        _TRIM(0)


class Sockets:
    """The WebSockets of this process, counted (``/api/health``'s ``sockets``)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.closed = 0
        """Closed since the last trim."""
        self.open = 0
        self.refused = 0
        """Refused for the cap."""
        self.cut = 0
        """Reset: the client read too slowly, or answered no ping."""

    def public(self) -> dict[str, int]:
        return {"open": self.open, "max": self.cap, "refused": self.refused, "cut": self.cut}


def _reset(transport: Transport) -> None:
    """Close at once with a reset: what was still to send is dropped by the kernel
    too (a graceful close of a socket whose client reads nothing waits for ever, then
    leaves the connection in FIN-WAIT-1 holding its buffers)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def _trim_now(sockets: Sockets) -> None:
    sockets.closed = 0
    # The closed sockets' objects hold one another (protocol, task, connection): with
    # the server's rare collections (``pitch serve``'s gc threshold) and nothing else
    # allocating, they would wait for the next burst of work.
    gc.collect()
    trim()


class _Inbox:
    """The protocol's queue of events for the app, in place of its ``asyncio.Queue``
    (four empty deques and an ``Event``: 3.5 KiB an idle socket). One reader, the
    app's task; an item put while a ``get`` is cancelled waits for the next one."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class _Writable:
    """The protocol's "the transport takes more" flag, in place of its
    ``asyncio.Event`` (an empty deque of waiters: 760 bytes an idle socket)."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = True
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        while not self._set:
            w = asyncio.get_running_loop().create_future()
            self._waiters.append(w)
            try:
                await w
            finally:
                if w in self._waiters:
                    self._waiters.remove(w)
        return True


def guarded_ws(
    sockets: Sockets, release: Callable[[str | None, Transport], None] | None = None
) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's WebSocket protocol with the cap, the send buffer and resets;
    ``release`` is told of each closed connection (``guard.ConnectionLimits``, which
    otherwise kept the closed ones, and all they hold, until their address came back)."""

    class GuardedWs(WebSocketsSansIOProtocol):
        _counted = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.queue = cast(Any, _Inbox())
            self.writable = cast(Any, _Writable())

        def connection_made(self, transport: BaseTransport) -> None:
            super().connection_made(transport)
            sockets.open += 1
            self._counted = True
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._counted:
                self._counted = False
                sockets.open -= 1
                sockets.closed += 1
                if sockets.closed == TRIM_AFTER:  # once the burst is over
                    self.loop.call_later(5.0, _trim_now, sockets)
            if release is not None:
                release(self.client[0] if self.client else None, self.transport)
            super().connection_lost(exc)

        def handle_connect(self, event: Request) -> None:
            if sockets.open > sockets.cap:
                # Refused before the app sees it: the descriptors left are for requests.
                sockets.refused += 1
                self.handshake_initiated = self.handshake_complete = self.close_sent = True
                self.conn.send_response(self.conn.reject(503, "The server is full.\n"))
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.transport.close()
                return
            super().handle_connect(event)
            # The app's task has not started yet: it finds this protocol in its scope.
            extensions = cast(dict[str, Any], self.scope["extensions"])
            extensions[WIRE] = self

        def unsent(self) -> int:
            """Bytes written to the transport that the kernel has not taken yet."""
            return int(self.transport.get_write_buffer_size())

        def reset(self, why: str) -> None:
            """End the connection now, with a reset, and log why."""
            if self.disconnected:
                return
            sockets.cut += 1
            client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
            log.warning("reset the socket of %s: %s", client, why)
            _reset(self.transport)

        def keepalive_timeout(self) -> None:
            # No answer to a ping: the client is gone, or reads nothing (it would not
            # read a close frame either).
            self.pong_timer = None
            self.pending_ping_payload = None
            self.reset("no answer to a ping")

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.accept" and self.request is not None:
                # The handshake's request and response (their headers parsed twice
                # over, 5 KiB) are not read again once it is done; the app has read
                # the scope's copy of the headers (``api.deps``) by now too.
                # (websockets' parser keeps the request in its generator's frame too.)
                self.request.headers.clear()
                self.request = self.response = cast(Any, None)
                cast(list[Any], self.scope["headers"]).clear()  # shared with the app's copies
            if message["type"] == "websocket.close" and self.close_timer is not None:
                # The client has this long to answer the close frame, then it is reset
                # (the library closes gracefully, which a non-reader holds up).
                self.close_timer.cancel()
                self.close_timer = self.loop.call_later(
                    self.close_timeout, self.reset, "no answer to the close frame"
                )

    return GuardedWs
