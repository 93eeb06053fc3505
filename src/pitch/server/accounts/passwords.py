"""Argon2id password hashes, worked out off the event loop and bounded.

A hash costs ~50 ms of CPU and 64 MiB (argon2-cffi's ``PasswordHasher()`` defaults:
RFC 9106's recommendation for when memory is scarce). It runs on a small thread pool
of its own (argon2-cffi lets go of the GIL while it hashes), and at most
``workers + queue`` hashes are running or waiting: past that a request is refused at
once (503 ``server_busy``) rather than queued, so a flood of sign-ins cannot take
every core or grow a queue without end.
"""

from __future__ import annotations

import asyncio
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pitch.server.kernel.errors import ServiceError

T = TypeVar("T")

MIN_PASSWORD: Final = 8
"""Characters a password needs at least (NIST SP 800-63B's minimum for one chosen
by the person)."""

MAX_PASSWORD: Final = 256
"""Characters a password may have at most: Argon2 costs the same for any length, but
a bound keeps what a request makes the server hash small and room for any pass phrase."""


def normalized(password: str) -> str:
    """The password as hashed: NFKC, so that one typed on another keyboard or input
    method (full-width letters, a composed accent) is the same (SP 800-63B 5.1.1.2)."""
    return unicodedata.normalize("NFKC", password)


class Hasher:
    def __init__(self, *, workers: int, queue: int) -> None:
        self._ph = PasswordHasher()
        self._pool = ThreadPoolExecutor(workers, "pitch-hash")
        self._slots = workers + queue
        self._busy = 0
        self._lock = threading.Lock()
        self._dummy: str | None = None

    def _done(self, _fut: object) -> None:
        with self._lock:
            self._busy -= 1

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        with self._lock:
            if self._busy >= self._slots:
                raise ServiceError(
                    503, "the server checks as many passwords as it may; try again", "server_busy"
                )
            self._busy += 1
        # The slot is freed when the hash is done, not when the request goes: a client
        # that hangs up does not stop the thread, so it must not free a slot either.
        fut = self._pool.submit(fn, *args)
        fut.add_done_callback(self._done)
        return await asyncio.wrap_future(fut)

    async def hash(self, password: str) -> str:
        return await self._run(self._ph.hash, password)

    def _verify(self, encoded: str, password: str) -> bool:
        try:
            return self._ph.verify(encoded, password)
        except (VerificationError, InvalidHashError):
            return False

    async def warm(self) -> None:
        """Make the dummy hash now, so the first unknown name costs what any does."""
        if self._dummy is None:
            self._dummy = await self.hash("not a password of anyone's")

    async def verify(self, encoded: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no ``encoded`` (no such account) a dummy
        hash is checked all the same, so that the answer takes as long either way."""
        if encoded is None:
            await self.warm()
            assert self._dummy is not None
            await self._run(self._verify, self._dummy, password)
            return False
        return await self._run(self._verify, encoded, password)

    def needs_rehash(self, encoded: str) -> bool:
        """Whether the hash was made with other parameters than today's (cheap)."""
        try:
            return self._ph.check_needs_rehash(encoded)
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
