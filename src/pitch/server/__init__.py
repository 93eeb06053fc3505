"""The online game server: FastAPI app, WebSocket protocol, live tables, bot workers.

The server holds no rule logic: it asks the engine, stores every accepted action
before telling anyone, and sends each seat only its own view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitch.server.app import create_app
    from pitch.server.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> object:
    # Imported when asked for, so that the parts without FastAPI (pitch.server.kernel.text,
    # which account names use too) are imported without it.
    if name == "create_app":
        from pitch.server.app import create_app

        return create_app
    if name == "Settings":
        from pitch.server.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
