"""A real `pitch cluster` (nginx, PostgreSQL, server processes) and players that
reconnect through it, as the browser does, when their socket closes or goes quiet."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import create_engine, text

from tests.server.helpers import FAST_LIMITS, choose
from tests.support.ports import free_ports
from tests.support.timing import margin

FAST_NGINX = ("--client-rate", "100000", "--client-burst", "100000")
"""nginx's request rate per address out of the way: every test client is 127.0.0.1
(a test of the limits passes its own, which come later and win)."""


class ClusterProcess:
    """``python -m pitch cluster`` with ``processes`` servers on ``db_url``."""

    def __init__(
        self,
        db_url: str,
        run_dir: Path,
        processes: int = 3,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.args = (*FAST_NGINX, *args)
        self.env = {**os.environ, **FAST_LIMITS, **(env or {})}
        self.db_url = db_url
        self.run_dir = run_dir
        self.port = free_ports(1)
        self.base_port = free_ports(processes)
        self.processes = processes
        self.proc: subprocess.Popen[bytes] | None = None
        self.info: dict[str, Any] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "pitch", "cluster", "--processes", str(self.processes)),
                *("--port", str(self.port), "--base-port", str(self.base_port)),
                *("--db", self.db_url, "--run-dir", str(self.run_dir)),
                *self.args,
            ],
            stdout=(self.run_dir.parent / "cluster.out").open("ab"),
            stderr=subprocess.STDOUT,
            env=self.env,
        )
        state = self.run_dir / "cluster.json"
        deadline = time.monotonic() + margin(240)  # slow on a busy shared CPU
        while not state.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                out = (self.run_dir.parent / "cluster.out").read_text(errors="replace")
                raise RuntimeError(f"pitch cluster did not start: {out[-3000:]}")
            time.sleep(0.2)
        self.info = json.loads(state.read_text())

    def node(self, instance: str) -> dict[str, Any]:
        return next(p for p in self.info["processes"] if p["instance"] == instance)

    def health(self, instance: str) -> dict[str, Any]:
        r = httpx.get(f"http://127.0.0.1:{self.node(instance)['port']}/api/health", timeout=5)
        return dict(r.json())

    def signal(self, instance: str, sig: signal.Signals) -> None:
        os.kill(self.node(instance)["pid"], sig)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        for p in self.info.get("processes", []):  # a stopped one could not stop
            with contextlib.suppress(OSError):
                os.kill(p["pid"], signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def owner(db_url: str, table: str) -> str:
    eng = create_engine(db_url)
    try:
        with eng.connect() as c:
            return str(
                c.execute(text("SELECT owner FROM tables WHERE id=:t"), {"t": table}).scalar()
            )
    finally:
        eng.dispose()


def stored_actions(db_url: str, table: str) -> list[tuple[int, str, int | None, int | None]]:
    eng = create_engine(db_url)
    try:
        with eng.connect() as c:
            rows = c.execute(
                text("SELECT seq, kind, seat, action FROM events WHERE table_id=:t ORDER BY seq"),
                {"t": table},
            ).all()
            return [(int(r[0]), str(r[1]), r[2], r[3]) for r in rows]
    finally:
        eng.dispose()


@dataclass
class Seen:
    at: float
    seq: int
    last: dict[str, Any] | None


@dataclass
class ResilientPlayer:
    """Plays random legal actions until the game is over; reconnects (with its seat
    token, through nginx) whenever the socket closes or stays silent ``silence`` s."""

    base: str
    table: str
    token: str
    seed: int = 0
    think: float = 0.0
    silence: float = 5.0
    seen: list[Seen] = field(default_factory=list)
    connects: int = 0
    seat: int | None = None
    pause: asyncio.Event | None = None
    """While set, the player does not act (it still reads)."""
    busy: int = 0
    """``server_busy`` answers (an action not stored), each followed by a new try."""

    @property
    def ws_url(self) -> str:
        return self.base.replace("http", "ws", 1) + f"/ws/tables/{self.table}"

    def max_seq(self) -> int:
        return max((s.seq for s in self.seen), default=0)

    async def play(self, deadline: float) -> dict[str, Any]:
        rng = random.Random(self.seed)
        while time.monotonic() < deadline:
            acted = -1  # a new connection: what was sent before may not have landed
            last: dict[str, Any] | None = None
            try:
                async with websockets.connect(
                    self.ws_url, open_timeout=40, close_timeout=1, max_size=2**22
                ) as ws:
                    self.connects += 1
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    while True:
                        m = json.loads(await asyncio.wait_for(ws.recv(), self.silence))
                        if m["type"] == "error" and m["code"] == "bad_token":
                            raise AssertionError(f"seat token refused: {m}")
                        again = m["type"] == "error" and m["code"] == "server_busy"
                        if again:  # not stored: as a player would, try again
                            self.busy += 1
                            acted = -1
                            if last is None:
                                continue
                            m = last
                        if m["type"] == "welcome":
                            self.seat = m["seat"]
                        if m["type"] != "state":
                            continue
                        if not again:
                            last = m
                            self.seen.append(Seen(time.monotonic(), m["seq"], m["last"]))
                        if m["status"] == "over":
                            return dict(m)
                        g = m["game"]
                        if g and g["turn"] == self.seat and g["legal"] and m["seq"] > acted:
                            if self.pause is not None and self.pause.is_set():
                                continue
                            acted = m["seq"]
                            if self.think:
                                await asyncio.sleep(self.think)
                            a = choose(g, rng)
                            await ws.send(
                                json.dumps({"type": "action", "action": a, "seq": m["seq"]})
                            )
            except (websockets.WebSocketException, OSError, TimeoutError):
                await asyncio.sleep(0.2)
        raise AssertionError(f"the game at {self.table} did not finish in time")


def check_nothing_lost(players: list[ResilientPlayer], db_url: str, table: str) -> None:
    """Every state any client saw is the stored game's at that point: the last
    action before event ``seq`` is the one the state showed (nothing a client saw
    accepted was lost, and nothing was written twice or forked)."""
    events = stored_actions(db_url, table)
    assert [e[0] for e in events] == list(range(len(events)))
    last_action: dict[int, tuple[int | None, int | None]] = {}
    cur: tuple[int | None, int | None] | None = None
    for seq, kind, seat, action in events:
        if kind == "action":
            cur = (seat, action)
        if cur is not None:
            last_action[seq + 1] = cur
    for p in players:
        for s in p.seen:
            assert s.seq <= len(events), f"a client saw event {s.seq}, never stored"
            if s.last is not None:
                assert last_action[s.seq] == (s.last["seat"], s.last["action"]), s
