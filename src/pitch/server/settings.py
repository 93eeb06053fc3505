"""Server settings: command-line options, with ``PITCH_*`` environment defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from pitch.engine import Rules


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


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
    bot_workers: int = field(default_factory=lambda: _env_int("PITCH_BOT_WORKERS", 2))
    bot_timeout: float = field(default_factory=lambda: _env_float("PITCH_BOT_TIMEOUT", 5.0))
    """Seconds one bot decision may take (and may wait for a free worker): past it the
    worker is ended and replaced, and the heuristic plays for the bot. Bots seated
    over the network think at most 2 s a decision (``pitch.bots.options.NETWORK``)."""
    quick_bot_delay: float = field(default_factory=lambda: _env_float("PITCH_QUICK_BOT_DELAY", 0.6))
    """Seconds a bot waits before acting at the tables quick play starts (0..10)."""
    rules: Rules = field(default_factory=Rules)
    """The table options a new table starts from (``pitch serve --rule``): a request's
    preset and rules change them, and the lobby's form shows them as its defaults."""
    hint_bot: str = field(
        default_factory=lambda: os.environ.get("PITCH_HINT_BOT", "pimc:samples=12,time=0.4")
    )
    """The bot spec that answers ``hint`` messages: strong, but quick enough to wait for."""
    max_open_tables_per_client: int = field(
        default_factory=lambda: _env_int("PITCH_MAX_TABLES_PER_CLIENT", 10)
    )
    table_creations_per_minute: float = field(
        default_factory=lambda: _env_float("PITCH_TABLES_PER_MINUTE", 6.0)
    )
    max_live_tables: int = field(default_factory=lambda: _env_int("PITCH_MAX_TABLES", 5000))
    ws_messages_per_second: float = field(default_factory=lambda: _env_float("PITCH_WS_RATE", 20.0))
    ws_burst: int = field(default_factory=lambda: _env_int("PITCH_WS_BURST", 40))
    ws_max_strikes: int = 100
    """Refused messages (rate, malformed) a connection may send before it is closed."""
    max_connections_per_client: int = field(
        default_factory=lambda: _env_int("PITCH_MAX_CONNECTIONS_PER_CLIENT", 256)
    )
    max_spectators: int = 50
    auth_timeout: float = 30.0
    """Seconds a new socket has to send ``auth`` or ``spectate``."""
    send_queue: int = 256
    """Messages queued for a slow client before it is disconnected."""
    max_cached_tables: int = field(default_factory=lambda: _env_int("PITCH_MAX_CACHED", 1000))
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
    header_seconds: float = field(default_factory=lambda: _env_float("PITCH_HEADER_SECONDS", 10.0))
    """A connection must send its request headers within this long."""
    body_seconds: float = field(default_factory=lambda: _env_float("PITCH_BODY_SECONDS", 10.0))
    """A request's body must arrive within this long."""
    record_checks_per_minute: float = field(
        default_factory=lambda: _env_float("PITCH_RECORD_CHECKS_PER_MINUTE", 30.0)
    )
    """``POST /api/records/verify`` calls per client address (each replays up to 100 games)."""
    lease_seconds: float = field(default_factory=lambda: _env_float("PITCH_LEASE_SECONDS", 5.0))
    """How long this process's hold on its tables outlives its last heartbeat (one
    every fifth of it): after a crash, other processes adopt its tables this much
    later (docs/deploy.md)."""
    ws_ping_seconds: float = field(default_factory=lambda: _env_float("PITCH_WS_PING", 20.0))
    """WebSocket pings from the server: behind a proxy they also show the proxy that
    an idle socket's server is alive (its read timeout must be longer)."""
    idle_evict_seconds: float = 600.0
    """Tables with no one connected (and no bot to move) leave memory after this long."""
