"""A real server in a subprocess and a WebSocket player that records every message."""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.support.ports import free_port
from tests.support.tables import ws_url
from tests.support.timing import margin

FAST_LIMITS = {
    "PITCH_WS_RATE": "2000",
    "PITCH_WS_BURST": "2000",
    "PITCH_TABLES_PER_MINUTE": "10000",
    "PITCH_MAX_TABLES_PER_CLIENT": "10000",
    "PITCH_MAX_CONNECTIONS_PER_CLIENT": "5000",
    "PITCH_TABLES_OPEN_PER_CLIENT": "5000",
    "PITCH_WATCHED_TABLES_PER_CLIENT": "5000",
    "PITCH_READS_PER_MINUTE": "1000000",
    "PITCH_SEAT_CHANGES_PER_MINUTE": "1000000",
    "PITCH_SIGNUPS_PER_HOUR": "1000000",
    "PITCH_MIN_BOT_DELAY": "0",
    "PITCH_BOT_WORKERS": "1",
}


class ServerProcess:
    """``python -m pitch serve`` on a free port of 127.0.0.1."""

    def __init__(
        self,
        db_url: str,
        *,
        env: dict[str, str] | None = None,
        log: Path,
        args: tuple[str, ...] = (),
        nofile: tuple[int, int] | None = None,
        module: str = "pitch",
    ) -> None:
        self.db_url = db_url
        self.module = module
        """What ``python -m`` runs (a test's launcher may wrap ``pitch``)."""
        self.args = args
        self.nofile = nofile
        """The server's (soft, hard) limit on open files, if not this process's."""
        self.port = free_port()
        self.env = {**os.environ, **FAST_LIMITS, **(env or {})}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", self.module, "serve", "--port", str(self.port)),
                *("--db", self.db_url, "--log-level", "warning", "--bot-workers", "1"),
                *self.args,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=self.env,
            preexec_fn=self._limit if self.nofile else None,
        )
        deadline = time.monotonic() + margin(180)  # slow on a busy shared CPU
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()  # not left running past the suite
        raise RuntimeError("server did not start")

    def _limit(self) -> None:
        assert self.nofile is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.nofile)

    def workers(self) -> list[int]:
        """The pids of the server's bot worker processes (its spawned children)."""
        assert self.proc is not None
        out = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            for pid in (task / "children").read_text().split():
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if b"spawn_main" in cmd:
                    out.append(int(pid))
        return sorted(out)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def create_table(base: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    r = httpx.post(base + "/api/tables", json=body or {}, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def claim(base: str, table: str, seat: int, name: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables/{table}/seats/{seat}", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def human_table(base: str, players: int = 4, **rules: Any) -> tuple[str, list[dict[str, Any]]]:
    t = create_table(base, {"rules": {"players": players, **rules}})
    return t["id"], [claim(base, t["id"], s, f"p{s}") for s in range(players)]


SILENCE = 60
"""Seconds without a message after which a :class:`Player` gives up (a table with bots
at the tests' pace never waits that long)."""

HARMLESS = frozenset({"stale"})
"""Errors after which the game still reaches the player: ``stale`` means a newer state
is on its way, and the player acts on that one."""


class PlayerStuck(AssertionError):
    """The player's game stopped reaching it; the message says why, with the last state."""

    def __init__(self, why: str, player: Player) -> None:
        last = player.last_state or {}
        super().__init__(f"{why}; last state seq {last.get('seq')}, status {last.get('status')}")


@dataclass
class Player:
    """Plays random legal actions over a real socket and keeps every message. Ends
    quietly when the game is over, ``stop`` is set or the server goes away; raises
    :class:`PlayerStuck` when an action is refused or the socket falls silent."""

    base: str
    table: str
    token: str | None
    seed: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    last_state: dict[str, Any] | None = None

    @property
    def ws_url(self) -> str:
        return ws_url(self.base, self.table)

    async def play(self, *, stop: asyncio.Event | None = None, act: bool = True) -> dict[str, Any]:
        """Play until the game is over (or ``stop`` is set, or the server goes away);
        return the last state message."""
        rng = random.Random(self.seed)
        acted = -1  # the same seq may come twice (a seat reconnecting is news too)
        try:
            async with websockets.connect(self.ws_url, max_size=2**22) as ws:
                hello = (
                    {"type": "auth", "token": self.token} if self.token else {"type": "spectate"}
                )
                await ws.send(json.dumps(hello))
                while stop is None or not stop.is_set():
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), SILENCE))
                    except TimeoutError:  # an OSError: must not end the game quietly
                        raise PlayerStuck(f"no message for {SILENCE} s", self) from None
                    self.messages.append(m)
                    if m["type"] == "welcome":
                        self.seat = m["seat"]
                    if m["type"] == "error" and m["code"] not in HARMLESS:
                        # A refused action is never sent again: waiting on would hang.
                        raise PlayerStuck(f"the server refused: {m}", self)
                    if m["type"] != "state":
                        continue
                    self.last_state = m
                    g = m["game"]
                    if m["status"] == "over":
                        break
                    if act and g and g["turn"] == self.seat and g["legal"] and m["seq"] > acted:
                        acted = m["seq"]
                        a = choose(g, rng)
                        await ws.send(json.dumps({"type": "action", "action": a, "seq": m["seq"]}))
        except (websockets.ConnectionClosed, OSError):
            pass
        assert self.last_state is not None
        return self.last_state


def choose(game: dict[str, Any], rng: random.Random) -> str:
    """Bid low once, then pass; play cards at random. Random bidding gets players set
    back so often that games run for thousands of actions; this keeps them short."""
    legal = game["legal"]
    bids = [a for a in legal if a.startswith("bid")]
    if bids and (game["high_bid"] == 0 or "pass" not in legal):
        return str(bids[0])
    if "pass" in legal:
        return "pass"
    return str(rng.choice(legal))


def record_actions(rec: dict[str, Any]) -> list[str]:
    """Every action of a record, in order, as text."""
    out: list[str] = []
    for h in rec["hands"]:
        out += ["pass" if b == 0 else f"bid {b}" for _s, b in h["bids"]]
        for t in h["tricks"]:
            out += t["cards"]
    return out


def verify_with_cli(rec: dict[str, Any], tmp: Path) -> None:
    path = tmp / "record.json"
    path.write_text(json.dumps(rec))
    r = subprocess.run(
        [sys.executable, "-m", "pitch", "verify", str(path)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 good, 0 bad" in r.stdout


def age_tables(db: Path, minutes: int) -> None:
    """Every table of the SQLite store ``db`` stood still ``minutes`` longer, as if
    nobody had played it since (what the limits read is the store's ``updated_at``)."""
    with sqlite3.connect(db) as con:
        con.execute(
            "UPDATE tables SET updated_at = strftime('%Y-%m-%d %H:%M:%f', updated_at, ?)",
            (f"-{minutes} minutes",),
        )


@dataclass
class RatedGame:
    """A rated heads-up game two signed-in clients played out (:func:`play_rated`)."""

    table: str
    tokens: list[str]
    winner: int
    """The winning seat."""


def play_rated(base: str, clients: list[httpx.Client], tries: int = 5) -> RatedGame:
    """``clients`` (signed in, two of them) take the seats of a new rated heads-up table
    in order and play it out. A socket the server closes on a loaded machine is opened
    again, as a browser would, up to ``tries`` times. Runs the players' event loop on a
    thread of its own, so that it may be called where one runs (Playwright's)."""
    from concurrent.futures import ThreadPoolExecutor

    r = clients[0].post("/api/tables", json={"rules": {"players": 2}, "options": {"rated": True}})
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    tokens = []
    for seat, c in enumerate(clients):
        r = c.post(f"/api/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
        assert r.status_code == 200, r.text
        tokens.append(str(r.json()["token"]))

    async def play() -> dict[str, Any] | None:
        players = [Player(base, table, tok, seed=i) for i, tok in enumerate(tokens)]
        await asyncio.gather(*(p.play() for p in players))
        ends = [p.last_state for p in players]
        return ends[0] if all((e or {}).get("status") == "over" for e in ends) else None

    with ThreadPoolExecutor(1) as pool:
        for _ in range(tries):
            final = pool.submit(asyncio.run, play()).result()
            if final is not None:
                return RatedGame(table, tokens, int(final["game"]["winner"]))
    raise AssertionError(f"the rated game at {table} did not end")


def seed_rating(db: Any, name: str, rating: int, games: int, kind: str = "solo") -> None:
    """Give the account ``name`` a stored rating of ``rating`` after ``games`` games, as
    its rated games would have (``db``: a ``pitch.store.Database``)."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from pitch.server.ratings.scale import MU, SCALE
    from pitch.store.models import AccountModel, RatingModel

    with db.sessions.begin() as s:
        aid = s.scalar(select(AccountModel.id).where(AccountModel.name == name))
        assert aid is not None, name
        s.merge(
            RatingModel(
                account_id=aid,
                kind=kind,
                mu=MU + (rating - 1500) / SCALE,
                sigma=3.0,
                games=games,
                wins=games // 2,
                left=0,
                updated_at=datetime.now(UTC),
            )
        )


def rate_at(srv: ServerProcess, name: str, rating: int, games: int, kind: str = "solo") -> None:
    """:func:`seed_rating` in the database of the running server ``srv``."""
    from pitch.store import Database

    db = Database(srv.db_url, migrate=False)
    try:
        seed_rating(db, name, rating, games, kind)
    finally:
        db.engine.dispose()
