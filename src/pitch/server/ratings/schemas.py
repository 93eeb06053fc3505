"""The leaderboards' and profiles' answers (docs/server.md, "Ratings"): public data,
each list bounded (100 rows, 500 chart points, 20 recent games)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

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
