"""The bot protocol: JSON Lines between a host and a bot process (``docs/bot-protocol.md``).

:mod:`~pitch.bots.protocol.events` turns a seat's views into the event stream a host
sends; :mod:`~pitch.bots.protocol.tracker` rebuilds the seat's
:class:`~pitch.engine.PlayerView` from that stream on the bot's side; and
:mod:`~pitch.bots.protocol.server` is the bot's read-act-answer loop.
"""

from pitch.bots.protocol.events import Event, GameEvents, act_message, end_message
from pitch.bots.protocol.server import serve
from pitch.bots.protocol.tracker import ProtocolError, ViewTracker

__all__ = [
    "Event",
    "GameEvents",
    "ProtocolError",
    "ViewTracker",
    "act_message",
    "end_message",
    "serve",
]
