"""The rating scale: what one number means, when it is provisional, and the bots' fixed
ratings.

Weng-Lin's model (``openskill``) keeps two numbers per player: ``mu``, the skill it
believes in, and ``sigma``, how unsure it is. A newcomer starts at ``mu`` 25, ``sigma``
25/3. People are shown one number, on the scale of chess ratings: ``1500 + 42 * (mu -
25)``. The factor makes a newcomer's uncertainty (25/3) 350 points, as a new player's
rating deviation is under Glicko (Lichess): a newcomer is 1500, and a player the model
is sure is 300 points stronger than another wins most games against them. The number
is the believed skill (``mu``), not a cautious one (``mu - 3 sigma``), which would
climb for every game played, won or lost; instead a rating is *provisional* (shown
with a question mark, and kept off the leaderboards) until :data:`PROVISIONAL_GAMES`
games of its kind.
"""

from __future__ import annotations

from typing import Final

MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
"""A newcomer's rating (``openskill``'s defaults), and a guest's at a rated table."""

BASE: Final = 1500
SCALE: Final = 42.0
"""Shown points per unit of ``mu``: 350 / (25/3), Glicko's newcomer deviation."""

PROVISIONAL_GAMES: Final = 10
"""Games of one kind before its rating is established: ten games is where the model's
uncertainty has fallen to about half a newcomer's, whatever their results."""

KINDS: Final = ("headsup", "solo", "partnership")
"""One rating per kind of table: two players, three to seven each for themselves, or
two teams of two."""

BOT_RATINGS: Final[dict[str, int]] = {
    "beginner": 1100,
    "club": 1500,
    "expert": 1750,
    "master": 1800,
}
"""The bots' fixed ratings, by level (``pitch.bots.registry``), the same at every
kind of table. Bots are anchors: the model rates people against them, and their own
ratings never move, so that the scale cannot drift (a bot plays thousands of games,
and a bot that farmed or fed points would carry everyone's number with it). The values
are estimates from the levels' results against each other in the arena, to be
recalibrated from rated games against people."""

BOT_SIGMA: Final = 1.0
"""An anchor's uncertainty (42 points): the model trusts it, so a game against a bot
moves a person's rating by what the result says about them alone."""


def shown(mu: float) -> int:
    """The number people see for a believed skill ``mu``."""
    return round(BASE + SCALE * (mu - MU))


def bot_mu(level: str) -> float:
    """The ``mu`` of a bot level's fixed rating."""
    return MU + (BOT_RATINGS[level] - BASE) / SCALE


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
