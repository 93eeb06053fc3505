"""Table chat: a few quick phrases (translated by each client) and, where the table
allows it, short free text. Lines are stored with the table and the last ones are sent
to whoever joins; a client may mute them."""

from __future__ import annotations

from pitch.server.text import one_line

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
"""Characters in one free-text line."""

HISTORY = 50
"""Lines sent to a socket when it joins."""

MAX_LINES = 2000
"""Lines one table may hold (chat is for the game, not a forum)."""


def clean_text(text: str) -> str | None:
    """A chat line as stored and sent (:func:`pitch.server.text.one_line`)."""
    return one_line(text, MAX_TEXT)
