"""Four clients over real WebSockets play whole games against a running server."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import Player, ServerProcess, human_table, verify_with_cli

CARD = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")


def _play_game(base: str, seed: int, **rules: Any) -> tuple[str, list[Player], Player]:
    table, claims = human_table(base, **rules)
    players = [Player(base, table, c["token"], seed=seed * 10 + i) for i, c in enumerate(claims)]
    watcher = Player(base, table, None)

    async def run() -> None:
        await asyncio.gather(*(p.play() for p in players), watcher.play(act=False))

    asyncio.run(run())
    return table, players, watcher


def test_four_clients_play_to_the_end_and_the_record_verifies(
    server: ServerProcess, tmp_path: Path
) -> None:
    table, players, _ = _play_game(server.base, 1)
    for p in players:
        assert p.last_state is not None and p.last_state["status"] == "over"
        assert not [m for m in p.messages if m["type"] == "error"]
    rec = httpx.get(f"{server.base}/api/tables/{table}/record").json()
    assert rec["winner"] is not None
    assert rec["players"] == ["p0", "p1", "p2", "p3"]
    verify_with_cli(rec, tmp_path)
    # The session's server is shared: other tests' p2 may have finished games too.
    games = {g["table"]: g for g in httpx.get(f"{server.base}/api/players/p2/games").json()}
    assert games[table]["status"] == "over" and games[table]["seat"] == 2


def _strings(x: Any, skip: set[str]) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() if k not in skip for s in _strings(v, skip)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v, skip)]
    return []


def _played(game: dict[str, Any]) -> set[str]:
    cards = {c["card"] for t in game["tricks"] for c in t["cards"]}
    if game["trick"]:
        cards |= {c["card"] for c in game["trick"]["cards"]}
    return cards


def test_no_card_of_another_seat_is_sent_before_it_is_played(
    server: ServerProcess, db_kind: str
) -> None:
    if db_kind != "sqlite":
        pytest.skip("the views do not depend on the database")
    base = server.base
    for seed in range(2):
        table, players, watcher = _play_game(base, 100 + seed, target=5)
        rec = httpx.get(f"{base}/api/tables/{table}/record").json()
        deals = [h["deal"] for h in rec["hands"]]
        checked = 0
        for p in [*players, watcher]:
            for m in p.messages:
                g = m.get("game")
                if m["type"] != "state" or g is None or m["status"] == "over":
                    continue
                deal = deals[g["hand_number"] - 1]
                own = set(deal[p.seat]) if p.seat is not None else set()
                played = _played(g)
                # 'last', 'last_hand' and 'last_trick' speak of cards already played
                # (checked below).
                cards = {s for s in _strings(g, {"last_hand", "last_trick"}) if CARD.match(s)}
                assert cards <= own | played, (p.seat, cards - own - played)
                if p.seat is None:
                    assert g["hand"] is None and g["legal"] == []
                else:
                    assert set(g["hand"]) <= own
                if g["last_hand"] and g["last_hand"]["cards"]:
                    prev = rec["hands"][g["hand_number"] - 2]
                    prev_played = {c for t in prev["tricks"] for c in t["cards"]}
                    assert {c for c in g["last_hand"]["cards"].values() if c} <= prev_played
                if g["last_trick"]:
                    # This hand's last finished trick, or between hands the last one of
                    # a hand before (a thrown-in hand has none): played either way.
                    shown = {c["card"] for c in g["last_trick"]["cards"]}
                    before = rec["hands"][: g["hand_number"] - 1]
                    earlier = {c for h in before for t in h["tricks"] for c in t["cards"]}
                    assert shown <= played | earlier, (p.seat, shown)
                checked += 1
        assert checked > 100
