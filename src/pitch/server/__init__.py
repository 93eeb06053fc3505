"""The online game server: FastAPI app, WebSocket protocol, live tables, bot workers.

The server holds no rule logic: it asks the engine, stores every accepted action
before telling anyone, and sends each seat only its own view.
"""

from pitch.server.app import create_app
from pitch.server.settings import Settings

__all__ = ["Settings", "create_app"]
