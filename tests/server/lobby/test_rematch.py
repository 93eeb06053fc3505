"""Rematch (issue 17): the same seats and rules again, the deal passed on, one call per
player, on a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.server.helpers import Player, ServerProcess, claim, create_table
from tests.support.databases import db_url


def _finished_game(base: str) -> tuple[str, list[str], int]:
    t = create_table(base, {"rules": {"players": 2, "target": 1}})["id"]
    tokens = [claim(base, t, s, name)["token"] for s, name in enumerate(["Ann", "Bo"])]

    async def both() -> None:
        await asyncio.gather(*(Player(base, t, tok, seed=i).play() for i, tok in enumerate(tokens)))

    asyncio.run(both())
    rec = httpx.get(f"{base}/api/tables/{t}/record").json()
    return t, tokens, rec["hands"][0]["dealer"]


def test_rematch_seats_everyone_again_and_passes_the_deal(server: ServerProcess) -> None:
    base = server.base
    t, tokens, dealer = _finished_game(base)
    first = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[1]})
    assert first.status_code == 200, first.text
    new = first.json()["table"]
    assert new != t and first.json()["seat"] == 1
    # The others see it offered, in the table's info and its state.
    assert httpx.get(f"{base}/api/tables/{t}").json()["rematch"] == new
    assert httpx.get(f"{base}/api/tables/{t}/state").json()["rematch"] == new
    assert httpx.get(f"{base}/api/tables/{new}").json()["status"] == "waiting"
    second = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[0]})
    assert second.json()["table"] == new and second.json()["seat"] == 0
    info = httpx.get(f"{base}/api/tables/{new}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bo"]
    assert info["rules"] == httpx.get(f"{base}/api/tables/{t}").json()["rules"]
    state = httpx.get(f"{base}/api/tables/{new}/state").json()
    assert state["game"]["dealer"] == (dealer + 1) % 2  # R2.4: the deal passes left
    # Asking twice is refused; the new token is the only key to the new seat.
    again = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[0]})
    assert again.status_code == 409


def test_rematch_is_refused_before_the_end_and_without_a_seat(server: ServerProcess) -> None:
    base = server.base
    t = create_table(base, {"rules": {"players": 2}})["id"]
    tok = claim(base, t, 0, "Ann")["token"]
    r = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tok})
    assert r.status_code == 409 and "not over" in r.text
    r = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": "x" * 43})
    assert r.status_code == 403
    r = httpx.post(f"{base}/api/tables/{t}/rematch", content="{}")
    assert r.status_code == 415


def test_a_rematch_everyone_left_can_be_made_again(server: ServerProcess) -> None:
    base = server.base
    t, tokens, _ = _finished_game(base)
    first = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[0]}).json()
    left = httpx.post(f"{base}/api/tables/{first['table']}/leave", json={"token": first["token"]})
    assert left.json()["status"] == "abandoned"
    assert httpx.get(f"{base}/api/tables/{t}").json()["rematch"] is None
    again = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[1]})
    assert again.status_code == 200, again.text
    assert again.json()["table"] != first["table"]


def test_making_a_rematch_spends_the_table_creation_allowance(tmp_path: Path) -> None:
    # Everyone leaving a waiting rematch deletes it, and asking again made another: without the
    # allowance, a loop made and dropped tables (rows, ids) as fast as it could ask.
    srv = ServerProcess(
        db_url("sqlite", tmp_path), env={"PITCH_TABLES_PER_MINUTE": "3"}, log=tmp_path / "log"
    )
    srv.start()
    try:
        base = srv.base
        t, tokens, _ = _finished_game(base)  # the first of the 3
        first = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[0]}).json()
        left = httpx.post(
            f"{base}/api/tables/{first['table']}/leave", json={"token": first["token"]}
        )
        assert left.json()["status"] == "abandoned"  # waiting, nobody left: deleted
        again = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[0]})
        assert again.status_code == 200, again.text  # the third
        joined = httpx.post(f"{base}/api/tables/{t}/rematch", json={"token": tokens[1]})
        assert joined.status_code == 200 and joined.json()["table"] == again.json()["table"]
        # Joining was free; making the two rematches spent the allowance.
        refused = httpx.post(f"{base}/api/tables", json={}, timeout=10)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_requests"
    finally:
        srv.stop()
