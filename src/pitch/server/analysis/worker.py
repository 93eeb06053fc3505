"""What runs in the analysis workers' processes: one game's analysis
(:func:`pitch.bots.analysis.analyze`), its progress sent back to the server as it goes."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from multiprocessing.queues import Queue
from typing import Any

from pitch.bots import analysis
from pitch.engine.errors import PitchError

_progress: Queue[Any] | None = None


def start(parent: int, progress: Queue[Any]) -> None:
    """A worker's start: its progress queue; a lower CPU priority, so that the bots of
    live tables come first when both want the cores; and it leaves within a second of
    its server's death (``kill -9``)."""
    global _progress
    _progress = progress
    with contextlib.suppress(OSError):
        os.nice(10)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def warm() -> bool:
    """Load the compiled search (before the first job, not in its first decision)."""
    analysis._ready()
    return True


def run(job: str, record: str, game: int, deals: int, seconds: float) -> bytes:
    """The analysis of the canonical ``record`` as ``pitch analyze --json`` writes it
    (docs/bots.md), with (job, done, total) on the progress queue after each decision."""
    q = _progress

    def progress(done: int, total: int) -> None:
        if q is not None:
            q.put((job, done, total))

    try:
        a = analysis.analyze(
            json.loads(record), game=game, deals=deals, seconds=seconds, progress=progress
        )
    except PitchError as e:  # checked before it came here; a record past analyze's bounds
        raise ValueError(str(e)) from None
    out = analysis.to_json([a])
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False).encode()
