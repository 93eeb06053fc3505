"""A small in-process event bus: how a room tells the rooms above it that something
happened without importing them (issue 45).

A lower room publishes a typed event it defines (``tables.events``); the composition root
(:mod:`pitch.server.wiring`) subscribes the handlers of the rooms above it
(``botplay``, ``lobby``; later records, ratings, analysis) in the order they were
built. :meth:`Bus.publish` awaits every handler in that order, in the publisher's
task, so an event is handled before the publisher goes on, exactly as the direct
call it replaces was. A handler that raises is logged with its event and the next
handler still runs: an error is never lost silently, and never stops the others.

Handlers are plain ``async`` functions. One that does not suspend runs to its end
without giving the event loop a turn, so publishing costs a dictionary look-up and
a call per handler (the play pipeline publishes on every action).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger("pitch.server")


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event. Each room defines the events it publishes, in its own
    ``events`` module, so that a subscriber imports downward only."""


E = TypeVar("E", bound=Event)
Handler = Callable[[Any], Awaitable[None]]


class Bus:
    """Typed events to their handlers, awaited in the order they were subscribed."""

    def __init__(self) -> None:
        self._handlers: dict[type[Event], list[Handler]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: Event) -> None:
        for handler in self._handlers.get(type(event), ()):
            try:
                await handler(event)
            except Exception:
                log.exception("%s: handler %r failed", type(event).__name__, handler)
