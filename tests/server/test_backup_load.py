"""A backup taken while a real server plays tables, restored into a new place: a
server started on it has every table of the backup, as it was when the backup began
(SQLite, and PostgreSQL when ``PITCH_TEST_PG_URL`` is set)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from pitch.store import Database
from tests.server.helpers import Player, ServerProcess, claim, create_table, verify_with_cli
from tests.support.databases import db_url, fresh_pg_database
from tests.support.timing import margin


def pitch_db(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "pitch", "db", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=margin(120))


def bot_table(base: str, players: int, target: int) -> tuple[str, str]:
    """A table of one human (a test player) and ``club`` bots; its id and the token."""
    body = {
        "rules": {"players": players, "target": target},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "club"}] * (players - 1),
        "options": {"bot_delay": 0},
    }
    t = create_table(base, body)["id"]
    return t, claim(base, t, 0, "ann")["token"]


def seq(p: Player) -> int:
    return int((p.last_state or {"seq": -1})["seq"])


def server_seq(base: str, table: str) -> int:
    return int(httpx.get(f"{base}/api/tables/{table}/state", timeout=10).json()["seq"])


async def until(stop: asyncio.Event, players: list[Player], at_least: int) -> None:
    """Set ``stop`` once every one of ``players`` has seen ``at_least`` actions."""
    while not all(seq(p) >= at_least for p in players):
        await asyncio.sleep(0.01)
    stop.set()


def table_ids(url: str) -> set[str]:
    db = Database(url, migrate=False)
    try:
        with db.engine.connect() as conn:
            return {r[0] for r in conn.execute(text("SELECT id FROM tables"))}
    finally:
        db.close()


def test_backup_under_load_restores_every_table(db_kind: str, tmp_path: Path) -> None:
    sqlite = db_kind == "sqlite"
    (tmp_path / "live").mkdir()
    backup = tmp_path / ("backup.db" if sqlite else "backup.dump")
    srv = ServerProcess(db_url(db_kind, tmp_path / "live"), log=tmp_path / "server.log")
    srv.start()
    try:
        # Over before the backup; left mid-game before it (a table nobody has open
        # waits); playing all through it (to a target they never reach here).
        short = [bot_table(srv.base, 2, 3) for _ in range(3)]
        paused = [bot_table(srv.base, 3, 11) for _ in range(2)]
        busy = [bot_table(srv.base, 3, 999) for _ in range(3)]
        done = [Player(srv.base, t, tok, seed=i) for i, (t, tok) in enumerate(short)]
        halted = [Player(srv.base, t, tok, seed=10 + i) for i, (t, tok) in enumerate(paused)]
        going = [Player(srv.base, t, tok, seed=20 + i) for i, (t, tok) in enumerate(busy)]
        seen: dict[str, tuple[int, int]] = {}

        async def play_and_back_up() -> None:
            halt, stop = asyncio.Event(), asyncio.Event()
            halting = [asyncio.create_task(p.play(stop=halt)) for p in halted]
            load = [asyncio.create_task(p.play(stop=stop)) for p in going]
            await asyncio.gather(until(halt, halted, 20), *(p.play() for p in done), *halting)
            await until(asyncio.Event(), going, 20)
            low = {p.table: seq(p) for p in going}
            proc = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "pitch", "db", "backup", str(backup)),
                *("--db", srv.db_url),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            out, _ = await asyncio.wait_for(proc.communicate(), margin(120))
            assert proc.returncode == 0, out
            for p in going:
                seen[p.table] = (low[p.table], server_seq(srv.base, p.table))
            assert any(hi > lo for lo, hi in seen.values()), "nothing was written meanwhile"
            # Play on a while after the backup, then stop.
            await until(stop, going, max(hi for _lo, hi in seen.values()) + 20)
            await asyncio.gather(*load)
            assert all(not t.done() or t.result()["status"] == "playing" for t in load)

        asyncio.run(play_and_back_up())
        for t, _ in paused:
            seen[t] = (server_seq(srv.base, t),) * 2
        records = {
            t: httpx.get(f"{srv.base}/api/tables/{t}/record", timeout=10).json() for t, _ in short
        }
    finally:
        srv.stop()

    if sqlite:
        with sqlite3.connect(backup) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()

    fresh = tmp_path / "fresh" / "pitch.db"
    fresh.parent.mkdir()
    url = f"sqlite:///{fresh}" if sqlite else fresh_pg_database()
    r = pitch_db("restore", str(backup), "--db", url)
    assert r.returncode == 0, r.stdout + r.stderr
    assert table_ids(url) == {t for t, _ in short + paused + busy}
    again = ServerProcess(url, log=tmp_path / "restored.log")
    again.start()
    try:
        # A server runs on it now: a second restore is refused and changes nothing.
        r = pitch_db("restore", str(backup), "--db", url)
        assert r.returncode == 2 and "a server is using" in r.stderr, r.stdout + r.stderr
        assert [p.name for p in fresh.parent.iterdir() if ".bak-" in p.name] == []

        for t, _ in short:  # finished before the backup: the same game, verified
            rec: dict[str, Any] = httpx.get(f"{again.base}/api/tables/{t}/record").json()
            assert rec == records[t]
            verify_with_cli(rec, tmp_path)
        for t, _tok in paused + busy:  # mid-game: as while the backup ran, and playable
            state = httpx.get(f"{again.base}/api/tables/{t}/state").json()
            low, high = seen[t]
            assert state["status"] == "playing" and low <= state["seq"] <= high, (state, low, high)
        for t, tok in paused:
            p = Player(again.base, t, tok, seed=99)
            assert asyncio.run(asyncio.wait_for(p.play(), margin(600)))["status"] == "over"
            verify_with_cli(httpx.get(f"{again.base}/api/tables/{t}/record").json(), tmp_path)
    finally:
        again.stop()
    if sqlite:
        with sqlite3.connect(fresh) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
