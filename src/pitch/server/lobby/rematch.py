"""A rematch: the table is made (or found) by :mod:`pitch.server.tables.lifecycle`;
each asker then takes their seat in it, as a claim, or as in quick play where their
seat is a bot's. The seating stands here because it combines the tables room with
quick play, which stands above it."""

from __future__ import annotations

from collections.abc import Callable

from pitch.server.kernel.errors import ServiceError
from pitch.server.lobby.quickplay import QuickSeats
from pitch.server.tables.lifecycle import Lifecycle
from pitch.server.tables.seats import SeatClaims


class Rematches:
    def __init__(self, lifecycle: Lifecycle, seats: SeatClaims, quick: QuickSeats) -> None:
        self.lifecycle = lifecycle
        self.seats = seats
        self.quick = quick

    async def rematch(
        self, table_id: str, token: str, creator: str, charge: Callable[[], None]
    ) -> tuple[str, int, str]:
        """``charge`` spends the asker's table-creation allowance (it raises past it):
        called only by the asker who makes the rematch, not by those who join it."""
        try:
            return await self._rematch(table_id, token, creator, charge)
        except ServiceError as e:
            life = self.lifecycle
            old = life.tables.get(table_id) or life.cache.get(table_id)
            if e.status != 404 or old is None or old.rematch is None:
                raise
            old.rematch = None  # its players all left it, and it was deleted: again
            return await self._rematch(table_id, token, creator, charge)

    async def _rematch(
        self, table_id: str, token: str, creator: str, charge: Callable[[], None]
    ) -> tuple[str, int, str]:
        """The rematch's id, the seat, the new seat token."""
        old, new_id, seat, name = await self.lifecycle.rematch_table(
            table_id, token, creator, charge
        )
        if old.options.quick:
            # Their seat is a bot's there (``rematch_seats``): taken over as in quick
            # play, or another open one if a stranger was quicker.
            new = await self.lifecycle.find(new_id, live=True)
            if new.seats[seat].kind == "bot":
                got, token, _ = await self.quick.seat(new_id, name, prefer=seat)
                return new_id, got, token
        return new_id, seat, await self.seats.claim(new_id, seat, name)
