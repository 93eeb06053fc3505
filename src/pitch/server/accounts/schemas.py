"""The accounts API's request and answer shapes (docs/server.md, "Accounts")."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from pitch.server.kernel.text import NAME_INPUT

MAX_HELD_SEATS = 50
"""Seat tokens one sign-up or sign-in may bring along: a browser's own tables and games
(its "My tables" keeps fewer), each one row to update."""

PASSWORD_INPUT = 1024
"""Characters a request's password field may have at all; the rule (8 to 256) is the
room's, which answers ``bad_password`` in words a client shows."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HeldSeat(_In):
    table: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]
    token: Annotated[str, Field(min_length=1, max_length=64)]
    """The seat's token, as the claim answered it."""


class Credentials(_In):
    name: Annotated[str, Field(max_length=NAME_INPUT)]
    """The account's name: the seat name rule (at most 32 characters, no invisible
    characters, one script a word, not a bot's), unique without case and look-alikes."""
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """8 to 256 characters (compared after NFKC)."""
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_HELD_SEATS)] = Field(default_factory=list)
    """Seats this browser holds as a guest: they become the account's."""


class PasswordChange(_In):
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """The current password."""
    new_password: Annotated[str, Field(max_length=PASSWORD_INPUT)]


class PasswordCheck(_In):
    password: Annotated[str, Field(max_length=PASSWORD_INPUT)]
    """The current password (deleting an account asks for it)."""


class Rating(BaseModel):
    """One rating as people see it (docs/server.md, "Ratings")."""

    rating: int
    provisional: bool
    """Fewer games of this kind than a settled rating needs."""
    games: int
    wins: int
    left: int
    """Games the player left, that a stand-in bot finished (each counted a loss)."""


class Account(BaseModel):
    name: str
    ratings: dict[str, Rating] = Field(default_factory=dict)
    """The account's ratings by kind of table (``headsup``, ``solo``, ``partnership``):
    only the kinds it has played rated games of."""
    seats_linked: int | None = None
    """On sign-up and sign-in: how many of the seats sent became the account's."""
