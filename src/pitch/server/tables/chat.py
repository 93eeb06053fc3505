"""Table chat: a few quick phrases (translated by each client) and, where the table
allows it, short free text. Lines are stored with the table and the last ones are sent
to whoever joins; a client may mute them."""

from __future__ import annotations

from pitch.server.kernel.text import clean_text

PHRASES: tuple[str, ...] = (
    "Hello!",
    "Good luck!",
    "Nice play!",
    "Well bid!",
    "Oops!",
    "Thanks!",
    "Sorry!",
    "Good game!",
    "👍",
    "😄",
    "😮",
    "😢",
)
"""Quick phrases, by index (``{"type": "chat", "phrase": 2}``); the English text is
the key each client translates."""

MAX_TEXT = 200
"""Characters (grapheme clusters: an emoji is one) in one free-text line."""

MAX_INPUT = 800
"""Code points a line may have as sent (the socket's frame is 1024 bytes anyway)."""

HISTORY = 50
"""Lines sent to a socket when it joins."""

MAX_LINES = 2000
"""Lines one table may hold (chat is for the game, not a forum)."""


def clean_line(text: str) -> str:
    """A chat line as stored and sent: the text rule of :mod:`pitch.server.kernel.text` (no
    invisible or text-direction characters but in emoji, no pile of combining marks,
    at most :data:`MAX_TEXT` characters); raises
    :class:`~pitch.server.kernel.text.TextRefused`."""
    return clean_text(text, MAX_TEXT, what="A chat line")
