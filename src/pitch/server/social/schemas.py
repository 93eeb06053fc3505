"""The social API's request and answer shapes (docs/server.md, "Friends and safety")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from pitch.server.kernel.text import NAME_INPUT
from pitch.server.social.room import REPORT_TEXT
from pitch.server.tables.chat import MAX_INPUT

TABLE_ID = r"^[a-z0-9]+$"
Reason = Literal["cheating", "abuse", "spam", "name", "other"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NameIn(_In):
    name: Annotated[str, Field(min_length=1, max_length=NAME_INPUT)]
    """A player's name, matched as sign-in matches it (case and width folded)."""


class InviteIn(NameIn):
    table: Annotated[str, Field(min_length=1, max_length=32, pattern=TABLE_ID)]
    """A table that is not over (waiting for players, or playing)."""


class ReportIn(NameIn):
    table: Annotated[str, Field(min_length=1, max_length=32, pattern=TABLE_ID)] | None = None
    """The table where it happened: its record as it stands is kept with the report."""
    chat: Annotated[str, Field(max_length=MAX_INPUT)] | None = None
    """The chat line reported, as the reporter saw it."""
    reason: Reason
    text: Annotated[str, Field(max_length=REPORT_TEXT * 4)] = ""
    """The reporter's own words: at most 500 characters."""


class FriendOut(BaseModel):
    name: str
    online: bool
    """Seen in the last two minutes (a request, or a table socket)."""
    table: str | None
    """A table in play where the friend holds a seat."""


class InviteOut(BaseModel):
    id: int
    sender: str = Field(serialization_alias="from")
    """The friend who sent it (``from`` in the JSON)."""
    table: str
    sent: datetime


class SocialOut(BaseModel):
    friends: list[FriendOut]
    incoming: list[str]
    """Names that asked to be friends, newest first."""
    outgoing: list[str]
    """Names asked, that have not answered yet."""
    blocked: list[str]
    invites: list[InviteOut]
    """Invites to a table from friends, newest first, for 10 minutes after sending."""


class FriendState(BaseModel):
    state: Literal["requested", "friends"]


class Created(BaseModel):
    id: int
