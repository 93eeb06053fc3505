"""kill -9 the server mid-hand, restart it, reconnect, finish: nothing is lost."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import (
    Player,
    ServerProcess,
    human_table,
    record_actions,
    verify_with_cli,
)
from tests.support.databases import db_url
from tests.support.timing import margin


def _seen_actions(players: list[Player]) -> list[tuple[int, str]]:
    """Every accepted action any client was told about: (seq, text), in order."""
    seen: dict[int, str] = {}
    for p in players:
        for m in p.messages:
            if m["type"] == "state" and m["last"] is not None:
                seen[m["seq"]] = m["last"]["text"]
    return sorted(seen.items())


@pytest.mark.parametrize("restarts", [1])
def test_kill_9_mid_hand_then_resume(db_kind: str, tmp_path: Path, restarts: int) -> None:
    srv = ServerProcess(db_url(db_kind, tmp_path), log=tmp_path / "server.log")
    srv.start()
    try:
        table, claims = human_table(srv.base, target=5)
        players = [Player(srv.base, table, c["token"], seed=i) for i, c in enumerate(claims)]

        async def until_mid_hand() -> None:
            stop = asyncio.Event()

            async def watch() -> None:
                # Kill once a trick of a later hand is under way: mid-hand, mid-game.
                while not stop.is_set():
                    await asyncio.sleep(0.01)
                    for p in players:
                        g = (p.last_state or {}).get("game")
                        if g and g["hand_number"] >= 2 and len(g["tricks"]) >= 2 and g["trick"]:
                            srv.kill9()
                            stop.set()
                            return

            await asyncio.gather(watch(), *(p.play(stop=stop) for p in players))

        asyncio.run(until_mid_hand())
        before = _seen_actions(players)
        assert len(before) > 10

        srv.start()  # same port, same database
        public = httpx.get(f"{srv.base}/api/tables/{table}/state").json()
        assert public["status"] == "playing"
        assert public["seq"] >= before[-1][0]
        assert public["game"]["phase"] == "play" and public["game"]["trick"] is not None

        fresh = [Player(srv.base, table, c["token"], seed=10 + i) for i, c in enumerate(claims)]

        async def finish() -> None:
            await asyncio.gather(*(p.play() for p in fresh))

        asyncio.run(finish())
        rec: dict[str, Any] = httpx.get(f"{srv.base}/api/tables/{table}/record").json()
        verify_with_cli(rec, tmp_path)
        # Every action a client saw accepted before the crash is in the record, in order.
        acts = record_actions(rec)
        assert [t for _seq, t in before] == acts[: len(before)]
        # The first state after the restart equals the last one seen before it.
        for old, new in zip(players, fresh, strict=True):
            first = next(m for m in new.messages if m["type"] == "state")
            if old.last_state is not None and old.last_state["seq"] == first["seq"]:
                assert old.last_state["game"] == first["game"]
    finally:
        srv.stop()


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("after", [0.0, 3.0], ids=["while-starting", "warmed-up"])
def test_bot_workers_leave_when_the_server_is_killed(tmp_path: Path, after: float) -> None:
    srv = ServerProcess(db_url("sqlite", tmp_path), log=tmp_path / "server.log")
    srv.start()
    try:
        assert srv.proc is not None
        deadline = time.monotonic() + margin(120)
        workers: list[int] = []
        while time.monotonic() < deadline and not workers:
            workers = _children(srv.proc.pid)  # the bot pool starts with the server
            time.sleep(0.2)
        assert workers, "no bot worker process was started"
        # At once: a worker still starting up must notice too (it once watched init).
        time.sleep(after)
        srv.kill9()
        deadline = time.monotonic() + margin(30)
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.2)
        assert not any(_alive(p) for p in workers), "bot workers outlived a killed server"
    finally:
        srv.stop()
