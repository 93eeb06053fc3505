"""How the rooms reach the database: a call run in the store's thread pool."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class RunDb(Protocol):
    """``await run_db(fn, *args)``: ``fn(*args)`` in the database's threads (one for
    SQLite, whose single writer keeps commits in order without lock waits)."""

    def __call__(self, fn: Callable[..., T], /, *args: Any, **kw: Any) -> Awaitable[T]: ...
