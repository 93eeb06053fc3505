"""Tables for the server's tests: a service on a database, a started game, and the
table socket's address."""

from __future__ import annotations

from typing import Any

from pitch.server.kernel.schemas import CreateTable
from pitch.server.settings import Settings
from pitch.server.wiring import TableService


def ws_url(base: str, table: str) -> str:
    """The socket of ``table`` at the server whose HTTP address is ``base``."""
    return base.replace("http", "ws", 1) + f"/ws/tables/{table}"


def service(db: str, instance: str, **settings: Any) -> TableService:
    """A table service (not started) as process ``instance`` on ``db``, one bot worker.

    Its lease is long (a minute), so that no stall of a loaded machine lets it run out
    (tests that need it gone end it by hand), and its heartbeat quick (0.1 s), so that
    a handoff asked of it is answered at once."""
    base: dict[str, Any] = {"min_bot_delay": 0.0, "lease_seconds": 60.0}  # quick bots
    svc = TableService(
        Settings(db_url=db, instance=instance, bot_workers=1, **{**base, **settings})
    )
    svc.owners.beat = min(0.1, svc.owners.ttl / 5)
    return svc


async def started_table(svc: TableService) -> str:
    """A 2-player table, both seats claimed (the game starts), and no action yet."""
    t = await svc.lifecycle.create(CreateTable(rules={"players": 2}), "client")
    await svc.seats.claim(t.id, 0, "ann")
    await svc.seats.claim(t.id, 1, "bob")
    assert t.status == "playing"
    return t.id
