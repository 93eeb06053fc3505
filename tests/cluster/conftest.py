"""The cluster tests need nginx and PostgreSQL (requirements/apt.txt; scripts/setup.sh
installs both): the database of ``PITCH_TEST_PG_URL`` (scripts/with-postgres.sh),
else a throwaway cluster of their own."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from pitch.cluster.nginx import nginx_binary
from pitch.cluster.postgres import ThrowawayPostgres, pg_bin

PG_URL = os.environ.get("PITCH_TEST_PG_URL")

if nginx_binary() is None:
    pytest.skip("nginx is not installed (apt-get install nginx)", allow_module_level=True)
if PG_URL is None and pg_bin() is None:
    pytest.skip(
        "no PostgreSQL: PITCH_TEST_PG_URL is not set and the postgresql package is absent",
        allow_module_level=True,
    )


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    if PG_URL is not None:
        yield PG_URL
        return
    pg = ThrowawayPostgres()
    try:
        yield pg.start()
    finally:
        pg.stop()


@pytest.fixture
def db(pg_url: str) -> str:
    """A new, empty database for one test's cluster."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(pg_url)
    name = "pitch_cluster_" + secrets.token_hex(5)
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    d = tmp_path / "run"
    d.mkdir()
    return d
