"""WebSocket messages, client to server: a discriminated union on ``type``.

Server-to-client messages are plain JSON objects with a ``type`` field, built in
:mod:`pitch.server.tables` and documented in ``docs/server.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from pitch.server.tables.chat import MAX_INPUT, PHRASES

MAX_MESSAGE_BYTES = 1024
"""Longer client messages are refused unread (the socket itself caps frames too)."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Auth(_Msg):
    """Take a seat: the token given when the seat was claimed."""

    type: Literal["auth"]
    token: Annotated[str, Field(min_length=1, max_length=128)]


class Spectate(_Msg):
    """Watch the table: public information only."""

    type: Literal["spectate"]


class Act(_Msg):
    """Bid, pass or play: ``"bid 2"``, ``"pass"``, ``"As"``, ``"10h"`` or an action id.

    ``seq`` (optional) is the state's ``seq`` the client acted on; a different one is
    refused as ``stale`` so a double click never plays into the next turn.
    """

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=16)] | StrictInt
    seq: StrictInt | None = None


class Sync(_Msg):
    """Ask for the current state again."""

    type: Literal["sync"]


class Ping(_Msg):
    type: Literal["ping"]


class Hint(_Msg):
    """Ask what a strong bot would do in the asker's seat (only on its own turn)."""

    type: Literal["hint"]


class Chat(_Msg):
    """Say something at the table: a quick phrase by index, or free text."""

    type: Literal["chat"]
    phrase: Annotated[StrictInt, Field(ge=0, lt=len(PHRASES))] | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_INPUT)] | None = None


Incoming = Auth | Spectate | Act | Sync | Ping | Hint | Chat
ClientMessage = Annotated[Incoming, Field(discriminator="type")]
CLIENT_MESSAGE = TypeAdapter[Incoming](ClientMessage)

ERROR_CODES: dict[str, str] = {
    "no_table": "no table has this id (the socket is closed with code 4404)",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "bad_json": "the message is not a JSON object",
    "bad_message": "the message does not match any message type (see 'details')",
    "unknown_type": "no message has this 'type'",
    "rate_limited": "too many messages; slow down",
    "not_authenticated": "send 'auth' (or 'spectate') first",
    "already_authenticated": "this connection already has a seat or is spectating",
    "bad_token": "no seat at this table has this token",
    "spectator": "spectators cannot act",
    "not_started": "the game has not started (seats are still open)",
    "game_over": "the game is over",
    "not_your_turn": "it is another seat's turn",
    "stale": "the game moved on since the state you acted on ('seq' differs)",
    "bad_action": "not an action: expected a card ('As', '10h'), 'pass' or 'bid N'",
    "server_busy": "the action could not be stored; try again",
    "hint_busy": "a hint for this seat is still being worked out",
    "hint_failed": "no hint could be worked out in time; try again",
    "chat_off": "this table does not take that kind of chat (options.chat)",
    "bad_chat": (
        "a chat message is one phrase or one line of text; a text refused by the text "
        "rule says why in 'reason' (pitch.server.kernel.text.REASONS) and 'message'"
    ),
    "chat_full": "this table has as many chat lines as it keeps",
    "too_many_tables": "this address has sockets open on as many tables as it may",
    "too_many_spectators": "this address watches this table from as many sockets as it may",
    "too_many_requests": "this address opened too many sockets and reads; wait a minute",
}
"""Every error code besides rule ids. An illegal action's code is the rule it breaks
(``R4.3``), taken from the engine's :class:`~pitch.engine.IllegalActionError`."""


def parse_client_message(text: str) -> Incoming | dict[str, object]:
    """The message, or an ``error`` message for the sender (never raises)."""
    if len(text) > MAX_MESSAGE_BYTES:
        return error("too_large")
    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as e:
        errs = e.errors(include_url=False, include_input=False, include_context=False)
        kinds = {x["type"] for x in errs}
        if "json_invalid" in kinds or "model_attributes_type" in kinds:
            return error("bad_json")
        if kinds & {"union_tag_invalid", "union_tag_not_found"}:
            return error("unknown_type")
        details = [f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in errs[:5]]
        return error("bad_message", details=details)


def error(code: str, message: str | None = None, **extra: object) -> dict[str, object]:
    return {"type": "error", "code": code, "message": message or ERROR_CODES[code], **extra}
