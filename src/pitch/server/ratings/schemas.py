"""The ratings room's answers (docs/server.md, "Ratings"): a table's rating changes,
the leaderboards and the profiles; public data, each list bounded (100 rows, 500 chart
points, 20 recent games)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from pitch.server.ratings.store import TableRating

Kind = Literal["headsup", "solo", "partnership"]
"""A kind of table, one rating each: two players, three to seven each for themselves,
two teams of two."""


class BoardRow(BaseModel):
    place: int
    rating: int
    name: str | None
    """The player's name (links to ``/api/players/{name}``); ``None`` for a bot."""
    bot: str | None
    """A bot's level (``beginner``, ``club``...): a bot's row, its rating fixed."""
    games: int | None
    """Rated games of this kind (``None`` for a bot)."""
    me: bool = False
    """The signed-in player's own row."""


class MyPlace(BaseModel):
    place: int | None
    """The signed-in player's place among the established ratings and the bots;
    ``None`` while their rating of this kind is provisional or missing."""
    rating: int | None
    provisional: bool
    games: int


class BoardOut(BaseModel):
    kind: Kind
    provisional_games: int
    """Rated games of a kind before a rating is established and listed here."""
    rows: list[BoardRow] = Field(max_length=100)
    me: MyPlace | None = None
    """Only for a signed-in player."""


class ProfileRating(BaseModel):
    rating: int
    provisional: bool
    games: int
    wins: int
    left: int
    """Games the player left, that a stand-in bot finished (each counted a loss)."""
    pitched: int
    """Hands of these games the player won the bidding and pitched."""
    set_back: int
    """Of those, hands their side did not make the bid and was set back."""


class RatedGame(BaseModel):
    table: str
    """The table id: its record is ``GET /api/tables/{table}/record`` (a replay)."""
    kind: Kind
    at: datetime
    before: int
    after: int
    outcome: Literal["win", "loss", "draw"]
    left: bool
    place: int | None = None
    """The player's side's place, 1 first (equal sides share one): a solo game's
    result, where "loss" is every place but the first."""
    sides: int | None = None
    """How many sides played (``place`` of ``sides``)."""


class ProfileOut(BaseModel):
    name: str
    member_since: datetime
    provisional_games: int
    """Rated games of a kind before its rating is established."""
    ratings: dict[str, ProfileRating]
    """By kind; only the kinds the player has rated games of."""
    history: list[RatedGame] = Field(max_length=500)
    """The rating after each rated game, oldest first (the chart; at most 500)."""
    recent: list[RatedGame] = Field(max_length=20)
    """The last 20 rated games, newest first."""


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
