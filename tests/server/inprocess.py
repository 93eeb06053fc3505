"""The app in-process (Starlette's TestClient, no real server): for tests of the
service's own behaviour that need no sockets of their own."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # Starlette suggests httpx2; httpx works and is pinned
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

from pitch.server import Settings, create_app

__all__ = ["TestClient", "WebSocketTestSession", "app_client", "in_process_settings"]


def in_process_settings(tmp: Path, **options: Any) -> Settings:
    """Settings on a fresh SQLite file in ``tmp``, one bot worker, and ``options``."""
    base = {
        "db_url": f"sqlite:///{tmp / 'app.db'}",
        "bot_workers": 1,
        "min_bot_delay": 0.0,
        "reads_per_minute": 1e6,
        "seat_changes_per_minute": 1e6,
    }
    return Settings(**{**base, **options})


@contextmanager
def app_client(settings: Settings) -> Iterator[TestClient]:
    """The app started (lifespan included) with ``settings``, and a client for it."""
    with TestClient(create_app(settings)) as client:
        yield client
