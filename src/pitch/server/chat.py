"""Table chat: a few quick phrases (translated by each client) and, where the table
allows it, short free text. Lines are stored with the table and the last ones are sent
to whoever joins; a client may mute them."""

from __future__ import annotations

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
    """``text`` with its whitespace folded, or ``None`` if nothing printable is left."""
    out = " ".join(text.split())
    if not out or not out.isprintable():
        return None
    return out[:MAX_TEXT]
