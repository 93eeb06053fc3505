"""What the tables room tells the rooms above it, on the bus (:mod:`pitch.server.kernel.events`)."""

from __future__ import annotations

from dataclasses import dataclass

from pitch.server.kernel.events import Event
from pitch.server.tables.live import LiveTable


@dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """A table moved on, was seated, adopted or left: the next move nobody at a
    keyboard makes may be due (the scheduler plans it, or clears the timer)."""

    table: LiveTable


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A new hand was dealt at a table still in play: strangers who claimed a bot's
    seat mid-hand (quick play) take it now."""

    table: LiveTable
