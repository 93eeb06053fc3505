"""The database keeps no address, and no hash of one that can be reversed: a table's
``creator`` is a hash keyed by the database's own secret (migration 0007)."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from pitch.server.kernel.limits import client_address, client_key
from pitch.store import Database, TableRepo
from pitch.store.models import TableModel
from tests.server.helpers import ServerProcess, create_table


def test_a_tables_creator_is_keyed_by_the_databases_secret(server: ServerProcess) -> None:
    table = create_table(server.base)["id"]
    db = Database(server.db_url, migrate=False)
    try:
        secret = TableRepo(db).client_secret()
        with db.sessions() as s:
            creator = s.scalar(select(TableModel.creator).where(TableModel.id == table))
    finally:
        db.close()
    assert len(secret) == 32
    unsalted = hashlib.sha256(client_address("127.0.0.1").encode()).hexdigest()[:16]
    assert creator != unsalted  # what anyone could compute for every IPv4 address
    assert creator == client_key("127.0.0.1", secret)
