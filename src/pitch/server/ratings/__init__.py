"""The ratings room (issue 46): one rating per kind of table for each account, fed by
the tables room's ``GameFinished`` event, exactly once per game. The one way in:
:class:`Ratings` and what its read functions answer. docs/server.md, "Ratings"."""

from pitch.server.ratings.room import RECENT_GAMES, Profile, Ratings, no_accounts
from pitch.server.ratings.scale import (
    BOT_RATINGS,
    KINDS,
    PROVISIONAL_GAMES,
    shown,
)
from pitch.server.ratings.store import (
    HistoryPoint,
    Leaderboard,
    LeaderRow,
    PlayerRating,
    SeatAccounts,
)

__all__ = [
    "BOT_RATINGS",
    "KINDS",
    "PROVISIONAL_GAMES",
    "RECENT_GAMES",
    "HistoryPoint",
    "LeaderRow",
    "Leaderboard",
    "PlayerRating",
    "Profile",
    "Ratings",
    "SeatAccounts",
    "no_accounts",
    "shown",
]
