"""Two accounts at one table from one address (issue 46, rating manipulation): the game
is rated as any other (a household or a school shares one address) but flagged on its
``rated_games`` row, and ``pitch ratings flagged`` lists it for the operator; two
addresses are not flagged. The seats keep a keyed hash of the network, never the
address."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time

import httpx
from sqlalchemy import select

from pitch.store import Database
from pitch.store.models import RatedGameModel, SeatModel
from tests.server.accounts.conftest import client, new_address
from tests.server.helpers import ServerProcess, play_rated
from tests.support.timing import margin

PASSWORD = "correct horse battery"


def _sign_up(c: httpx.Client) -> str:
    name = f"Twin {secrets.token_hex(3)}"
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return name


def _rated_game(srv: ServerProcess, first: httpx.Client, second: httpx.Client) -> str:
    """Both sign up and play a rated game; its table once both ratings are written."""
    names = [_sign_up(first), _sign_up(second)]
    table = play_rated(srv.base, [first, second]).table
    deadline = time.monotonic() + margin(30)
    while not all(c.get("/api/account").json()["ratings"] for c in (first, second)):
        assert time.monotonic() < deadline, f"the game at {table} of {names} was not rated"
        time.sleep(0.2)
    return table


def _stored(srv: ServerProcess, table: str) -> tuple[bool, list[str | None]]:
    db = Database(srv.db_url, migrate=False)
    try:
        with db.sessions() as s:
            game = s.get(RatedGameModel, table)
            assert game is not None
            hashes = list(
                s.scalars(
                    select(SeatModel.network_hash)
                    .where(SeatModel.table_id == table)
                    .order_by(SeatModel.seat)
                )
            )
            return game.shared_address, hashes
    finally:
        db.close()


def _flagged(srv: ServerProcess) -> list[dict[str, object]]:
    r = subprocess.run(
        [sys.executable, "-m", "pitch", "ratings", "flagged", "--db", srv.db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_two_accounts_from_one_address_are_rated_and_flagged(
    accounts_server: ServerProcess,
) -> None:
    home = new_address()
    with client(accounts_server, home) as ann, client(accounts_server, home) as bob:
        shared = _rated_game(accounts_server, ann, bob)
        names = sorted(c.get("/api/account").json()["name"] for c in (ann, bob))
    with client(accounts_server) as cy, client(accounts_server) as di:
        apart = _rated_game(accounts_server, cy, di)

    flag, hashes = _stored(accounts_server, shared)
    assert flag is True
    assert hashes[0] is not None and hashes[0] == hashes[1]
    assert home not in hashes[0] and len(hashes[0]) == 16  # keyed, not the address
    flag, hashes = _stored(accounts_server, apart)
    assert flag is False
    assert None not in hashes and hashes[0] != hashes[1]

    listed = {g["table"]: g for g in _flagged(accounts_server)}
    assert shared in listed and apart not in listed
    assert listed[shared]["kind"] == "headsup"
    assert sorted(listed[shared]["accounts"]) == names  # type: ignore[call-overload]
