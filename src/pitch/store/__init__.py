"""Storage: SQLAlchemy models, migrations and repositories for online tables.

A table is stored as its rules, its seat plan and the sequence of events (deals drawn
with ``secrets`` and accepted actions). The game state is rebuilt by replaying the
events through the engine, so the database never holds a second copy of the rules.
"""

from pitch.store.db import Database, default_url
from pitch.store.lease import InstanceLease, InstanceTaken
from pitch.store.open_seats import OpenSeats
from pitch.store.repo import ChatRow, GameSummary, SeatRow, StoredTable, TableRepo
from pitch.store.writer import Append, EventRow, EventWriter, StaleWrite, WriterBusy

__all__ = [
    "Append",
    "ChatRow",
    "Database",
    "EventRow",
    "EventWriter",
    "GameSummary",
    "InstanceLease",
    "InstanceTaken",
    "OpenSeats",
    "SeatRow",
    "StaleWrite",
    "StoredTable",
    "TableRepo",
    "WriterBusy",
    "default_url",
]
