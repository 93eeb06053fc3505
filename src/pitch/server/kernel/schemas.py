"""HTTP request and response bodies (pydantic; they make the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pitch.bots.registry import levels, network_spec
from pitch.engine import RulesError
from pitch.engine.rules import OPTIONS, check_options
from pitch.server.kernel.text import NAME_INPUT


def check_bot_spec(text: str) -> str:
    """A bot seat or substitute asked for by a request, normalised: a shipped bot or
    level with only the options and bounds of :data:`pitch.bots.options.NETWORK` (no
    ``ext:`` program, no search without a time cap of at most 2 s), and made once so
    a table never holds a seat whose bot cannot be made."""
    return str(network_spec(text))


class _In(BaseModel):
    # JSON's NaN and Infinity (Python's json reads them) are never a valid number here.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def check_rules(v: dict[str, Any]) -> dict[str, Any]:
    """A request's ``rules`` fields, each checked by the engine's option table (known
    key, type, range; a target of at most :data:`pitch.engine.rules.REQUEST_MAX`)."""
    try:
        check_options(v)
    except RulesError as e:
        raise ValueError(str(e)) from None
    return v


RulesIn = Annotated[dict[str, Any], Field(max_length=len(OPTIONS))]


class SeatPlan(_In):
    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, Field(max_length=200)] | None = None
    """Bot spec for a bot seat: a name or level (``random``, ``club``, ...), with
    options (``ismcts:iterations=500``). Default ``random``."""

    @field_validator("bot")
    @classmethod
    def _bot(cls, v: str | None) -> str | None:
        return None if v is None else check_bot_spec(v)


class TableOptions(_In):
    grace_seconds: Annotated[float, Field(ge=1, le=86400)] | None = None
    """A human gone longer than this is played for by ``substitute`` until back."""
    turn_seconds: Annotated[float, Field(ge=3, le=86400)] | None = None
    """Turn timer: when it runs out, ``substitute`` plays for the seat."""
    substitute: Annotated[str, Field(max_length=200)] = "random"
    """Bot spec used for absent players and the turn timer."""
    bot_delay: Annotated[float, Field(ge=0, le=10)] = 0.6
    """Seconds a bot waits before acting, so people can follow the play."""
    chat: Literal["free", "phrases", "off"] = "free"
    """Table chat: quick phrases and free text, quick phrases only, or none."""
    spectator_chat: bool = False
    """Whether spectators may chat too (players only, by default)."""
    quick: bool = False
    """Open to strangers (quick play): a person may take over a bot seat, which the bot
    gives up when the hand in play ends."""
    rated: bool = False
    """The game counts to its players' ratings (``pitch.server.ratings``): standard
    rules only (``rated_rules`` otherwise); a casual table is unrated."""

    @field_validator("substitute")
    @classmethod
    def _sub(cls, v: str) -> str:
        return check_bot_spec(v)


class CreateTable(_In):
    preset: Annotated[str, Field(max_length=40)] | None = None
    """A named preset (``standard``, ``partnership``, ...); ``rules`` fields override it."""
    rules: RulesIn = Field(default_factory=dict)
    """Fields of the engine's ``Rules`` (``players``, ``target``, ``partnerships``, ...):
    the options of ``GET /api/rules/options``."""
    seats: Annotated[list[SeatPlan], Field(max_length=7)] | None = None
    """One entry per seat; default: every seat human."""
    options: TableOptions = Field(default_factory=TableOptions)

    _rules = field_validator("rules")(check_rules)

    @field_validator("options")
    @classmethod
    def _not_quick(cls, v: TableOptions) -> TableOptions:
        # Quick play sends strangers to quick tables: only the server makes them, with
        # the options that keep a table going without anyone's goodwill (quickplay.py),
        # never a request with its own (no timer, slow bots, free chat).
        if v.quick:
            raise ValueError("quick-play tables are made by POST /api/quickplay, not here")
        return v


class ClaimSeat(_In):
    name: Annotated[str, Field(max_length=NAME_INPUT)]
    """The player's name: at most 32 characters once white space is folded, no
    invisible characters, no look-alike of a bot's or another seat's name (the service
    checks it: ``bad_name``, ``name_reserved``, ``name_taken``)."""


_TableRef = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]


class QuickPlay(_In):
    preset: Annotated[str, Field(max_length=40)] | None = None
    rules: RulesIn = Field(default_factory=dict)
    """The rules wanted, as for a new table (``players``, ``partnerships``, ...)."""

    _rules = field_validator("rules")(check_rules)
    level: Annotated[str, Field(max_length=40)] = "club"
    """The level of the bots to play with (``GET /api/bots``)."""
    avoid: Annotated[list[_TableRef], Field(max_length=50)] = Field(default_factory=list)
    """Tables not to be seated at (those where this player has a seat already)."""
    rated: bool = False
    """A rated game (standard rules only): only rated quick-play tables are offered."""

    @field_validator("level")
    @classmethod
    def _level(cls, v: str) -> str:
        names = [lv.level for lv in levels()]
        if v not in names:
            raise ValueError(f"level must be one of {', '.join(names)}")
        return v


class SeatInfo(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str | None
    claimed: bool
    connected: bool
    substituted: bool
    """A bot is playing for this absent human (grace period over)."""
    open: bool = False
    """A quick-play bot seat a stranger may take over (``POST /api/quickplay``)."""
    arriving: str | None = None
    """The stranger who takes this bot seat when the hand in play ends."""
    since: int | None = None
    """For a seat whose holder changed in the game (a stranger took over a quick-play
    bot, a player resigned to a bot): the hands before that, whose bid at this seat the
    one before made (``Bot 2``; the resigned player). ``None`` if it never changed."""


class TableInfo(BaseModel):
    id: str
    status: Literal["waiting", "playing", "over"]
    rules: dict[str, Any]
    options: TableOptions
    seats: list[SeatInfo]
    seq: int
    winner: int | None
    invite_url: str
    created_at: datetime
    rematch: str | None = None
    """The table where this finished game is played again, once a player asked."""


class Claimed(BaseModel):
    table: str
    seat: int
    token: str
    """Secret: send it in the socket's ``auth`` message. Shown once, stored only hashed."""
    ws_url: str


class QuickTable(BaseModel):
    table: str
    """Take a seat there with ``POST /api/tables/{table}/quickseat``."""


Joined = Literal["new", "fresh", "between", "mid-hand"]
"""Where quick play seated a player: a table it made for them (``new``), a game nobody
has bid in yet (``fresh``), a game between hands (``between``), a game in mid-hand
(``mid-hand``: ``waiting``)."""


class QuickSeat(Claimed):
    waiting: bool
    """True: a bot plays the seat until the hand in play ends, then it is yours (watch
    meanwhile); false: it is yours now."""
    joined: Joined
    """Which kind of game it is (the page says so)."""


class GameListItem(BaseModel):
    table: str
    seat: int
    status: str
    winner: int | None
    """The winning side (``Rules.side_of``), once the game is over and someone won."""
    won: bool | None
    """Whether ``seat``'s side won: ``None`` until the game is over, and when it
    stopped at the server's limit of hands with no winner."""
    names: list[str | None]
    held: list[int]
    """The seats a player holds: if ``seat`` is the only one, resigning ends the game
    (no winner, the record kept); otherwise a bot plays the seat on."""
    created_at: datetime
    updated_at: datetime


class SeatKey(_In):
    table: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]
    token: Annotated[str, Field(min_length=1, max_length=64)]


class MyTables(_In):
    seats: Annotated[list[SeatKey], Field(max_length=50)]
    """Seat tokens the client holds (the web client keeps them in localStorage)."""


class LeaveTable(_In):
    token: Annotated[str, Field(min_length=1, max_length=64)]
    """The seat's token (from claiming it): the seat it holds is the one left."""


class Rematch(LeaveTable):
    """The seat's token at the finished table: the seat taken again in the rematch."""


class LeftTable(BaseModel):
    table: str
    seat: int
    left: Literal["freed", "resigned"]
    """``freed``: the table was waiting and the seat is open again; ``resigned``: the
    game was in play and the table's ``substitute`` bot plays the seat to the end."""
    status: Literal["waiting", "playing", "over", "abandoned"]
    """The table's status now; ``over``: the last player resigned at a table of bots,
    which ended the game (kept, with no winner); ``abandoned``: no player held a seat
    any more at a waiting table, so the table was deleted (its link answers 404)."""


class Problem(BaseModel):
    """An error answer: ``detail`` in English for people reading the API, ``code``
    (``pitch.server.kernel.errors.HTTP_CODES``) for clients that show their own words."""

    detail: str | list[dict[str, Any]]
    """What is wrong, in English; for ``bad_request``, a list of the invalid fields."""
    code: str
    seat: int | None = None
    """The seat a ``seat_*`` code is about (0 is the first)."""
    limit: int | None = None
    """The limit a ``too_many_open`` answer is about, or a ``bad_name`` ``too_long``."""
    reason: str | None = None
    """Why a ``bad_name`` is refused (``pitch.server.kernel.text.REASONS``: ``empty``,
    ``too_long``, ``invisible``, ``marks``, ``mixed_script``)."""
    retry_after: int | None = None
    """Seconds to wait before the next try (``too_many_attempts``)."""
    min: int | None = None
    """A ``bad_password``'s bounds, in characters."""
    max: int | None = None
