"""Quick play by rating: which open table a signed-in player is offered first.

Quick play never makes anyone wait for an opponent: a table starts at once with bots in
the empty seats, open to the next strangers. So the wait that widens the match is the
*table's*: its players have waited that long for a stranger. A table accepts a newcomer
whose rating is within :func:`window` of its players' mean rating, a window that starts
narrow (:data:`WINDOW_START` points) and widens by :data:`WINDOW_GROWTH` points a second
until, after :data:`WINDOW_OPEN` seconds, anyone is welcome (a table nobody near its
rating comes to still fills, as on every busy site). Among the tables that accept the
newcomer, the nearest rating comes first; tables as near as each other keep the order
the store gave (games nobody has bid in first, then the fullest).

Blocks come before ratings: a table where a player sits whom the newcomer blocked, or
who blocked them, is never offered, whatever the rating. Guests are matched as before.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

WINDOW_START: Final = 150.0
"""Rating points either side of a table's mean that it accepts at once: about half a
newcomer's uncertainty (350, :mod:`pitch.server.ratings.scale`)."""
WINDOW_GROWTH: Final = 10.0
"""Points a second the window widens by while the table waits for a stranger."""
WINDOW_OPEN: Final = 90.0
"""Seconds after which a table takes anyone (1,050 points either side by then)."""


def window(waited: float) -> float:
    """Points either side of a table's rating it accepts after waiting ``waited``
    seconds for a stranger (infinite once it has waited :data:`WINDOW_OPEN`)."""
    if waited >= WINDOW_OPEN:
        return float("inf")
    return WINDOW_START + WINDOW_GROWTH * max(0.0, waited)


@dataclass(frozen=True, slots=True)
class OpenTable:
    """An open quick-play table as the store sees it: since when it has waited for a
    stranger and which accounts hold its seats."""

    table_id: str
    since: datetime
    accounts: frozenset[int]


Ratings = Callable[[Collection[int], str], Mapping[int, int]]
"""Accounts' shown ratings of one kind (a newcomer's for one with none). Runs in the
database's threads; the ratings room reads them."""
Blocked = Callable[[int], Collection[int]]
"""The accounts an account blocks or is blocked by. Runs in the database's threads;
the social room keeps the blocks."""


def no_blocks(_account: int) -> frozenset[int]:
    return frozenset()


def ranked(
    tables: Sequence[OpenTable],
    *,
    me: int,
    mine: int,
    ratings: Mapping[int, int],
    blocked: Collection[int],
    now: datetime,
) -> list[str]:
    """The tables account ``me`` (rated ``mine``) is offered, best first: none with a
    blocked player, none whose window does not reach ``mine``, nearest rating first.
    ``ratings`` holds the rating of every account at these tables."""
    scored: list[tuple[float, int, str]] = []
    refused = {me, *blocked}
    for order, t in enumerate(tables):
        if t.accounts & refused:
            continue
        people = [ratings[a] for a in t.accounts if a in ratings]
        if not people:  # nobody rated sits there (they left): offered, after the rest
            scored.append((float("inf"), order, t.table_id))
            continue
        gap = abs(sum(people) / len(people) - mine)
        if gap <= window((now - t.since).total_seconds()):
            scored.append((gap, order, t.table_id))
    return [tid for *_, tid in sorted(scored)]


def accounts_of(tables: Iterable[OpenTable]) -> set[int]:
    return {a for t in tables for a in t.accounts}
