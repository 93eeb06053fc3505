"""The suite's one allowance for a slow machine.

Tests wait for the state they assert (events, Playwright's auto-waiting ``expect``, a
loop until a condition holds); where a wait needs an upper bound it is a *margin*: a
time far above what the awaited thing takes on an idle machine, long enough for the
same thing on a loaded one (the suite is checked with two CPU-bound processes beside it,
``scripts/test.sh --stress``). ``PITCH_TEST_SLOW`` scales every margin at once for a
machine slower still (an emulated CPU, a crowded CI runner): ``PITCH_TEST_SLOW=3`` triples
them. A margin only bounds how long a failing test hangs; it never decides a pass.
"""

from __future__ import annotations

import math
import os
import time


def _slow() -> float:
    raw = os.environ.get("PITCH_TEST_SLOW", "1")
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 1 <= value <= 50):
        raise ValueError(f"PITCH_TEST_SLOW must be a number from 1 to 50, not {raw!r}")
    return value


SLOW = _slow()
"""How much slower than an ordinary loaded machine this one may be (``PITCH_TEST_SLOW``)."""


def margin(seconds: float) -> float:
    """An upper bound of ``seconds`` on a wait, scaled by ``PITCH_TEST_SLOW``."""
    return seconds * SLOW


def margin_ms(seconds: float) -> float:
    """:func:`margin` in milliseconds, as Playwright's ``timeout`` arguments take it."""
    return margin(seconds) * 1000.0


def came_back(since: float, per_minute: float) -> int:
    """How many of a per-minute allowance have come back since ``since`` (a
    ``time.monotonic()`` reading): a test that spends an allowance on a loaded machine
    may see that many more requests accepted than the allowance, and no more."""
    return int((time.monotonic() - since) * per_minute / 60)
