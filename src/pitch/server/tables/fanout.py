"""Fan-out: a table's news to everyone at it, each seat its own view."""

from __future__ import annotations

import time

from pitch.server.tables.live import LiveTable
from pitch.server.tables.table_json import state_texts


def broadcast(t: LiveTable) -> None:
    """Send everyone at the table its ``state`` as of now: each seat its own view,
    spectators the public one."""
    t.changed = time.monotonic()
    texts = state_texts(t)
    for i, s in enumerate(t.seats):
        if s.conns:
            text = texts.text(i)
            for c in s.conns:
                c.send_text(text)
    if t.spectators:
        text = texts.text(None)
        for c in t.spectators:
            c.send_text(text)
