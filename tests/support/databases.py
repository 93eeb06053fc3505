"""Databases for the suite: SQLite always, PostgreSQL when ``PITCH_TEST_PG_URL`` is set
(``scripts/with-postgres.sh`` starts a throwaway cluster and sets it)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

PG_URL = os.environ.get("PITCH_TEST_PG_URL")


def fresh_pg_database(cluster_url: str | None = None) -> str:
    """A new, empty database on the test cluster (``PITCH_TEST_PG_URL`` unless another
    is given), so that tables from other tests stay apart."""
    import psycopg
    from sqlalchemy.engine import make_url

    cluster_url = cluster_url or PG_URL
    assert cluster_url is not None
    url = make_url(cluster_url)
    name = "pitch_" + secrets.token_hex(6)
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.set(database=name).render_as_string(hide_password=False)


def db_url(kind: str, tmp: Path) -> str:
    if kind == "postgresql":
        return fresh_pg_database()
    return f"sqlite:///{tmp / 'pitch.db'}"


DBS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(PG_URL is None, reason="PITCH_TEST_PG_URL is not set"),
    ),
]
