"""The one error a table job raises for a request it refuses, and its codes."""

from __future__ import annotations

HTTP_CODES: dict[str, str] = {
    "bad_request": "the request is not valid (FastAPI's 422: `detail` lists what is wrong)",
    "no_route": "no API route has this path, or not this method (404, 405)",
    "bad_rules": "the table's rules or seat plan are not valid (the rule id leads `detail`)",
    "no_human": "a table needs at least one human seat",
    "rated_rules": (
        "a rated table plays the standard rules: `fields` names the rules that differ (house "
        "rules make a casual table, unrated)"
    ),
    "no_table": "no table has this id",
    "no_player": "no player goes by this name (or their account was deleted)",
    "no_seat": "the table has no seat of that number (R1.3)",
    "bad_token": "no seat at this table is held by that token",
    "seat_taken": "the seat (`seat`) is someone else's",
    "seat_is_bot": "the seat (`seat`) is played by a bot",
    "name_taken": (
        "another seat at the table goes by that name, or one that looks like it (told apart "
        "without case, and `ΑΝΝ` in Greek is `Ann`; quick play gives the name a number "
        "instead: `Ann 2`)"
    ),
    "bad_name": (
        "the name breaks the text rule: `reason` says how (`empty`, `too_long` with "
        "`limit`, `invisible`, `marks`, `mixed_script`); `detail` says it in a sentence"
    ),
    "name_reserved": (
        "the name reads as a bot's (`Bot 2`, `Бот 2`, `Robot 2`: in any language the site "
        "speaks, or a look-alike: `ВОТ 2` in Cyrillic capitals)"
    ),
    "seat_changed": "the seat (`seat`) changed while the request ran; try again",
    "try_again": "the table changed while the request ran; try again",
    "not_over": "the game is not over yet",
    "game_over": "the game is over",
    "not_quick": "the table is not open to quick play",
    "no_open_seat": "no seat is open at the table",
    "too_many_requests": (
        "past a per-address rate (tables made, record checks, reads, seats), or the "
        "address's last record check still runs"
    ),
    "too_many_open": "the address has as many unfinished tables as it may (`limit`)",
    "server_full": "the server holds as many live tables as it may",
    "server_busy": (
        "the table is moving to this process, the database failed, or the server checks as "
        "many records as it may; try again"
    ),
    "name_in_use": "an account goes by that name, or one that looks like it (as `name_taken`)",
    "bad_password": "a new password is shorter than `min` or longer than `max` characters",
    "bad_login": (
        "the name or the password is wrong (one answer for both: it never tells whether "
        "an account has that name)"
    ),
    "signed_out": "not signed in: no session, or one that ended, expired or whose account is gone",
    "too_many_attempts": (
        "too many failed sign-ins from this address or under this name: try again after "
        "`retry_after` seconds (also the `Retry-After` header)"
    ),
    "no_such_player": "no live account goes by that name (friends, blocks, invites, reports)",
    "blocked": (
        "one of the two players blocks the other (the same answer both ways: it never "
        "tells who blocked)"
    ),
    "self": "a request about oneself (befriend, block, invite or report oneself)",
    "not_friends": "an invite to a table goes only to a friend",
    "social_limit": (
        "past a per-account cap (friends, pending friend requests, blocks, pending invites, "
        "reports a day): `limit`"
    ),
    "no_invite": "no invite sent to or by this account has this id (it expired, or was dismissed)",
    "bad_text": "a report's text or chat line breaks the text rule: `reason` as in `bad_name`",
    "bad_passkey": (
        "the passkey was not accepted: an unknown passkey, a bad signature, a challenge "
        "that is unknown, used or expired, another site's (one answer for all)"
    ),
    "too_many_passkeys": "the account has as many passkeys as it may (`limit`)",
    "passkey_known": "this passkey is registered already",
    "no_passkey": "the account has no passkey with this id",
    "other_site": "a change sent from another site's page (`Origin`)",
    "not_json": "a `POST` that is not `Content-Type: application/json`",
    "too_large": "the request body is larger than the server takes",
    "too_slow": "the request body did not arrive in time",
    "bad_record": "the record breaks the rules or the record format (`detail` says where)",
    "record_too_long": (
        "the record is too long to analyse: more hands or decisions than the server takes (`limit`)"
    ),
    "no_job": "no analysis job has this id (it ended long ago, or the server restarted)",
}
"""Every ``code`` an HTTP error answer may carry (docs/server.md, "HTTP errors"): a
client shows its own words for it, in its reader's language; ``detail`` is English."""

_BY_STATUS = {
    401: "signed_out",
    403: "bad_token",
    404: "no_table",
    429: "too_many_requests",
    503: "server_busy",
}


class ServiceError(Exception):
    """A request the service refuses: ``status`` is the HTTP status to answer, ``code``
    one of :data:`HTTP_CODES` (by default the usual one for the status), ``extra`` the
    answer's other fields (``seat``, ``limit``, ``reason``); ``retry_after`` the seconds
    of a ``Retry-After`` header."""

    def __init__(
        self,
        status: int,
        detail: str,
        code: str | None = None,
        *,
        retry_after: int | None = None,
        **extra: int | str,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code or _BY_STATUS[status]
        assert self.code in HTTP_CODES, self.code
        self.extra = extra
        self.retry_after = retry_after
