"""Server settings: command-line options, with ``PITCH_*`` environment defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any

from pitch.engine import Rules


class SettingsError(ValueError):
    """A setting that is not a number or is out of its range: the server does not start."""


# The range of every number setting, and the environment variable its default is read
# from: wide enough for any real deployment and for the tests' quick timers, narrow
# enough that a typo cannot make the server do unbounded work (100,000 bot workers) or
# stop it working (a lease of inf, a rate of 0).
LIMITS: dict[str, tuple[float, float, str | None]] = {
    "bot_workers": (1, 64, "PITCH_BOT_WORKERS"),
    "bot_timeout": (0.1, 600, "PITCH_BOT_TIMEOUT"),
    "quick_bot_delay": (0, 10, "PITCH_QUICK_BOT_DELAY"),
    "min_bot_delay": (0, 10, "PITCH_MIN_BOT_DELAY"),
    "max_hands": (1, 1_000_000, "PITCH_MAX_HANDS"),
    "max_open_tables_per_client": (1, 1_000_000, "PITCH_MAX_TABLES_PER_CLIENT"),
    "table_creations_per_minute": (0.001, 1_000_000, "PITCH_TABLES_PER_MINUTE"),
    "max_live_tables": (1, 1_000_000, "PITCH_MAX_TABLES"),
    "ws_messages_per_second": (0.001, 1_000_000, "PITCH_WS_RATE"),
    "ws_burst": (1, 1_000_000, "PITCH_WS_BURST"),
    "ws_max_strikes": (1, 1_000_000, None),
    "max_connections_per_client": (1, 1_000_000, "PITCH_MAX_CONNECTIONS_PER_CLIENT"),
    "tables_open_per_client": (1, 1_000_000, "PITCH_TABLES_OPEN_PER_CLIENT"),
    "max_spectators": (0, 10_000, "PITCH_MAX_SPECTATORS"),
    "spectators_per_client": (1, 10_000, "PITCH_SPECTATORS_PER_CLIENT"),
    "watched_tables_per_client": (1, 1_000_000, "PITCH_WATCHED_TABLES_PER_CLIENT"),
    "auth_timeout": (0.1, 3600, None),
    "send_queue": (1, 100_000, None),
    "max_cached_tables": (0, 1_000_000, "PITCH_MAX_CACHED"),
    "header_seconds": (0.1, 3600, "PITCH_HEADER_SECONDS"),
    "body_seconds": (0.1, 3600, "PITCH_BODY_SECONDS"),
    "record_checks_per_minute": (0.001, 1_000_000, "PITCH_RECORD_CHECKS_PER_MINUTE"),
    "record_hands_per_minute": (100, 1_000_000_000, "PITCH_RECORD_HANDS_PER_MINUTE"),
    "record_check_workers": (1, 16, "PITCH_RECORD_CHECK_WORKERS"),
    "reads_per_minute": (1, 1_000_000, "PITCH_READS_PER_MINUTE"),
    "analysis_workers": (1, 16, "PITCH_ANALYSIS_WORKERS"),
    "analysis_queue": (0, 1000, "PITCH_ANALYSIS_QUEUE"),
    "analyses_per_minute": (0.001, 1_000_000, "PITCH_ANALYSES_PER_MINUTE"),
    "analysis_max_decisions": (1, 100_000, "PITCH_ANALYSIS_MAX_DECISIONS"),
    "analysis_seconds": (0.01, 60, "PITCH_ANALYSIS_SECONDS"),
    "seat_changes_per_minute": (1, 1_000_000, "PITCH_SEAT_CHANGES_PER_MINUTE"),
    "signups_per_hour": (1, 1_000_000, "PITCH_SIGNUPS_PER_HOUR"),
    "login_backoff_seconds": (0.1, 3600, "PITCH_LOGIN_BACKOFF"),
    "lease_seconds": (1, 3600, "PITCH_LEASE_SECONDS"),
    "invite_seconds": (1, 86_400, "PITCH_INVITE_SECONDS"),
    "ws_ping_seconds": (0.1, 3600, "PITCH_WS_PING"),
    "idle_evict_seconds": (1, 86_400, None),
    "max_sockets": (0, 10_000_000, "PITCH_MAX_SOCKETS"),
    "spectator_idle_seconds": (1, 604_800, "PITCH_SPECTATOR_IDLE"),
    "slow_reader_seconds": (0.1, 3600, "PITCH_SLOW_READER_SECONDS"),
}


def _env(setting: str, default: int | float) -> Any:
    """The setting's environment variable read as the type of its default (unset: the
    default); its range is checked with the others, by ``Settings``."""
    name = LIMITS[setting][2]
    assert name is not None
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        return type(default)(text)
    except ValueError:
        kind = "a whole number" if isinstance(default, int) else "a number"
        raise SettingsError(f"{name} must be {kind}, not {text!r}") from None


def _env_list(name: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in os.environ.get(name, "").split(",") if x.strip())


@dataclass(frozen=True, kw_only=True)
class Settings:
    db_url: str | None = None
    """SQLAlchemy URL; ``None``: SQLite in the user's data directory."""
    public_url: str | None = None
    """Base of invite links (``https://pitch.example``); default: the request's host."""
    instance: str = field(default_factory=lambda: os.environ.get("PITCH_INSTANCE", "default"))
    """This process's name when several share one database: each restores only the
    unfinished tables it served (the ones it last stored an event or claim of)."""
    bot_workers: int = field(default_factory=lambda: _env("bot_workers", 2))
    bot_timeout: float = field(default_factory=lambda: _env("bot_timeout", 5.0))
    """Seconds one bot decision may take (and may wait for a free worker): past it the
    worker is ended and replaced, and the heuristic plays for the bot. Bots seated
    over the network think at most 2 s a decision (``pitch.bots.options.NETWORK``)."""
    quick_bot_delay: float = field(default_factory=lambda: _env("quick_bot_delay", 0.6))
    """Seconds a bot waits before acting at the tables quick play starts (0..10)."""
    min_bot_delay: float = field(default_factory=lambda: _env("min_bot_delay", 0.1))
    """The least time a bot or stand-in waits before its move, whatever a table's
    ``bot_delay`` says: at 0 one table's bots made some 450 moves a second, each a
    database write, and a client may keep 32 tables going (``tables_open_per_client``)."""
    max_hands: int = field(default_factory=lambda: _env("max_hands", 300))
    """Hands a game may last at this server: then it stops, with no winner. The rules
    set no end (bots that bid at random go ever further below 0 at any target), and
    each hand adds events to store, keep in memory and replay on every load."""
    rules: Rules = field(default_factory=Rules)
    """The table options a new table starts from (``pitch serve --rule``): a request's
    preset and rules change them, and the lobby's form shows them as its defaults."""
    hint_bot: str = field(
        default_factory=lambda: os.environ.get("PITCH_HINT_BOT", "pimc:samples=12,time=0.4")
    )
    """The bot spec that answers ``hint`` messages: strong, but quick enough to wait for."""
    max_open_tables_per_client: int = field(
        default_factory=lambda: _env("max_open_tables_per_client", 10)
    )
    table_creations_per_minute: float = field(
        default_factory=lambda: _env("table_creations_per_minute", 6.0)
    )
    max_live_tables: int = field(default_factory=lambda: _env("max_live_tables", 5000))
    ws_messages_per_second: float = field(
        default_factory=lambda: _env("ws_messages_per_second", 20.0)
    )
    ws_burst: int = field(default_factory=lambda: _env("ws_burst", 40))
    ws_max_strikes: int = 100
    """Refused messages (rate, malformed) a connection may send before it is closed."""
    max_connections_per_client: int = field(
        default_factory=lambda: _env("max_connections_per_client", 256)
    )
    tables_open_per_client: int = field(default_factory=lambda: _env("tables_open_per_client", 32))
    """Tables one client may have open at once (sockets on them, as player or
    spectator). A table plays only while someone has it open, so this bounds the bot
    work one address can keep going."""
    max_spectators: int = field(default_factory=lambda: _env("max_spectators", 50))
    """Spectators' sockets at one table."""
    spectators_per_client: int = field(default_factory=lambda: _env("spectators_per_client", 4))
    """Sockets one client may watch one table from (of its ``max_spectators``)."""
    watched_tables_per_client: int = field(
        default_factory=lambda: _env("watched_tables_per_client", 8)
    )
    """Tables one client may watch at once (of its ``tables_open_per_client``): 157
    addresses watching 32 tables each held a server's 5,000 live tables."""
    auth_timeout: float = 30.0
    """Seconds a new socket has to send ``auth`` or ``spectate``."""
    send_queue: int = 256
    """Messages queued for a slow client before it is disconnected."""
    max_cached_tables: int = field(default_factory=lambda: _env("max_cached_tables", 1000))
    """Stored tables kept in memory for reading (``GET``) only, least recently used
    dropped first; they do not count as live tables."""
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: _env_list("PITCH_ALLOWED_ORIGINS")
    )
    """Other sites whose pages may send changes (POSTs, sockets) here, besides this
    one and ``public_url``: ``https://friends.example``."""
    forwarded_allow_ips: tuple[str, ...] = field(
        default_factory=lambda: _env_list("PITCH_FORWARDED_ALLOW_IPS")
    )
    """Proxies (addresses or networks) whose ``X-Forwarded-For`` is believed. Default:
    none, so a client cannot pick its own address for the per-client limits."""
    header_seconds: float = field(default_factory=lambda: _env("header_seconds", 10.0))
    """A connection must send its request headers within this long."""
    body_seconds: float = field(default_factory=lambda: _env("body_seconds", 10.0))
    """A request's body must arrive within this long."""
    record_checks_per_minute: float = field(
        default_factory=lambda: _env("record_checks_per_minute", 30.0)
    )
    """``POST /api/records/verify`` calls per client address (each replays up to 100 games)."""
    record_hands_per_minute: float = field(
        default_factory=lambda: _env("record_hands_per_minute", 6000.0)
    )
    """Hands those calls may hold together, per client address: a replay costs about
    0.15 ms a hand, and a 2 MiB body can hold 3,000 of them."""
    record_check_workers: int = field(default_factory=lambda: _env("record_check_workers", 2))
    """Processes that check records, each one request at a time; four times as many
    requests may wait for one (``pitch.server.records.check.RecordChecks``)."""
    analysis_workers: int = field(default_factory=lambda: _env("analysis_workers", 1))
    """Processes that analyse games (``pitch.server.analysis``), one job each, beside
    the bot workers and at a lower CPU priority."""
    analysis_queue: int = field(default_factory=lambda: _env("analysis_queue", 4))
    """Analysis jobs that may wait for a worker; past them a request is refused (503)."""
    analyses_per_minute: float = field(default_factory=lambda: _env("analyses_per_minute", 6.0))
    """New analysis jobs per client address (a stored analysis is free to read again)."""
    analysis_max_decisions: int = field(
        default_factory=lambda: _env("analysis_max_decisions", 2000)
    )
    """The most decisions (bids and cards) of a game analysed (a 4-player game to 7
    holds some 150-300; each costs about 15 ms of CPU, at most ``analysis_seconds``)."""
    analysis_seconds: float = field(default_factory=lambda: _env("analysis_seconds", 1.0))
    """The time cap of each decision of an analysis (``pitch.bots.analysis.TIME``)."""
    reads_per_minute: float = field(default_factory=lambda: _env("reads_per_minute", 300.0))
    """Reads of tables and game lists per client address (``GET /api/tables/{id}``,
    its ``/state``, ``/hands`` and ``/record``; the game lists): a table not in memory
    is read from the store and replayed, a list is a query of up to 51 rows. A page
    load makes one to three of them."""
    seat_changes_per_minute: float = field(
        default_factory=lambda: _env("seat_changes_per_minute", 30.0)
    )
    """Seats claimed, taken by quick play or left, per client address: each is a write
    to the store and a message to everyone at the table."""
    signups_per_hour: float = field(default_factory=lambda: _env("signups_per_hour", 10.0))
    """Accounts one address (an IPv6 /64; its /56 and /48: 4 and 16 times as many) may
    make an hour, all at once at most; counted by each process (docs/server.md)."""
    login_backoff_seconds: float = field(default_factory=lambda: _env("login_backoff_seconds", 1.0))
    """The first wait after the free failed sign-ins; each further failure doubles it,
    up to 5 minutes for a name and 15 for an address (docs/server.md, "Accounts")."""
    invite_seconds: float = field(default_factory=lambda: _env("invite_seconds", 600.0))
    """How long a friend's invite to a table shows in the receiver's lobby."""
    lease_seconds: float = field(default_factory=lambda: _env("lease_seconds", 5.0))
    """How long this process's hold on its tables outlives its last heartbeat (one
    every fifth of it): after a crash, other processes adopt its tables this much
    later (docs/deploy.md)."""
    ws_ping_seconds: float = field(default_factory=lambda: _env("ws_ping_seconds", 20.0))
    """WebSocket pings from the server: behind a proxy they also show the proxy that
    an idle socket's server is alive (its read timeout must be longer)."""
    idle_evict_seconds: float = 600.0
    """Tables with no one connected (and no bot to move) leave memory after this long."""
    max_sockets: int = field(default_factory=lambda: _env("max_sockets", 0))
    """WebSockets this process holds at once (0: as many as its open-files limit
    leaves room for, ``pitch.server.realtime.sockets``); ``pitch serve`` refuses more than that."""
    spectator_idle_seconds: float = field(
        default_factory=lambda: _env("spectator_idle_seconds", 900.0)
    )
    """A spectator's socket is closed once neither its client sent anything nor its
    table changed for this long (a forgotten tab; one that still watches reconnects)."""
    slow_reader_seconds: float = field(default_factory=lambda: _env("slow_reader_seconds", 10.0))
    """A socket with more unsent bytes than ``sockets.MAX_UNSENT`` for this long is cut."""

    def __post_init__(self) -> None:
        types = {f.name: f.type for f in fields(self)}
        for name, (lo, hi, env) in LIMITS.items():
            value, whole = getattr(self, name), types[name] == "int"
            number = isinstance(value, int if whole else (int, float))
            if isinstance(value, bool) or not number or not (lo <= value <= hi):
                what = f"{env} ({name})" if env else name
                kind = "a whole number" if whole else "a number"
                raise SettingsError(
                    f"{what} must be {kind} from {_num(lo)} to {_num(hi)}, not {value!r}"
                )


def _num(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"
