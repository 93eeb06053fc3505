"""The cluster tests need nginx and PostgreSQL (requirements/apt.txt; scripts/setup.sh
installs both): the database of ``PITCH_TEST_PG_URL`` (scripts/with-postgres.sh),
else a throwaway cluster of their own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from pitch.cluster.nginx import nginx_binary
from pitch.cluster.postgres import ThrowawayPostgres, pg_bin
from tests.support.databases import fresh_pg_database

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
    return fresh_pg_database(pg_url)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    d = tmp_path / "run"
    d.mkdir()
    return d
