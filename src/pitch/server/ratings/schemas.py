"""The ratings room's answers (docs/server.md, "Ratings")."""

from __future__ import annotations

from pydantic import BaseModel, Field

from pitch.server.ratings.store import TableRating


class SeatRatingChange(BaseModel):
    seat: int
    before: int
    """The shown rating before the game, and after it."""
    after: int
    outcome: str
    """``win``, ``loss`` or ``draw``."""
    left: bool
    """The player left; the stand-in bot finished the game (a loss)."""


class TableRatings(BaseModel):
    rated: bool
    """Whether the game's ratings are written yet (a rated table's, once it is over)."""
    kind: str | None = None
    seats: list[SeatRatingChange] = Field(default_factory=list)
    """The seats of signed-in players whose rating changed (guests and bots: none)."""

    @classmethod
    def of(cls, t: TableRating | None) -> TableRatings:
        if t is None:
            return cls(rated=False)
        return cls(
            rated=True,
            kind=t.kind,
            seats=[
                SeatRatingChange(
                    seat=c.seat, before=c.before, after=c.after, outcome=c.outcome, left=c.left
                )
                for c in t.seats
            ],
        )
