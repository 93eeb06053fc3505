"""Accounts and ratings in the cluster (issue 46): two players sign up through nginx,
play a rated game at whichever process owns its table, and every process, asked
directly, knows their sessions and shows the same new ratings."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.cluster.helpers import ClusterProcess
from tests.server.helpers import play_rated
from tests.support.timing import margin

PASSWORD = "correct horse battery"


@pytest.fixture
def cluster(db: str, run_dir: Path) -> Iterator[ClusterProcess]:
    c = ClusterProcess(db, run_dir)
    c.start()
    try:
        yield c
    finally:
        c.stop()


def test_sessions_and_ratings_hold_through_every_process(cluster: ClusterProcess) -> None:
    with (
        httpx.Client(base_url=cluster.url, timeout=30) as ann,
        httpx.Client(base_url=cluster.url, timeout=30) as bob,
    ):
        for c in (ann, bob):
            r = c.post(
                "/api/accounts", json={"name": f"Cl {secrets.token_hex(3)}", "password": PASSWORD}
            )
            assert r.status_code == 201, r.text
        winner = play_rated(cluster.url, [ann, bob]).winner

        # Each process, asked directly (not through nginx), knows both sessions and
        # reads the ratings the owner's process wrote.
        for node in cluster.info["processes"]:
            for seat, c in enumerate((ann, bob)):
                with httpx.Client(
                    base_url=f"http://127.0.0.1:{node['port']}", cookies=c.cookies, timeout=30
                ) as direct:
                    deadline = time.monotonic() + margin(30)
                    while True:
                        r = direct.get("/api/account")
                        assert r.status_code == 200, (node["instance"], r.text)
                        ratings = r.json()["ratings"]
                        if ratings or time.monotonic() > deadline:
                            break
                        time.sleep(0.2)
                    got = ratings["headsup"]
                    assert got["games"] == 1, (node["instance"], got)
                    assert (got["rating"] > 1500) == (seat == winner), (got, winner)
        # Signing out through nginx ends the session at every process: the old cookie,
        # kept (as a thief would), is refused everywhere.
        stolen = {"pitch_session": str(ann.cookies.get("pitch_session"))}
        assert ann.request("DELETE", "/api/session", json={}).status_code == 204
        for node in cluster.info["processes"]:
            with httpx.Client(
                base_url=f"http://127.0.0.1:{node['port']}", cookies=stolen, timeout=30
            ) as direct:
                assert direct.get("/api/account").status_code == 401
