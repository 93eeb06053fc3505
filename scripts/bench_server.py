#!/usr/bin/env python3
"""Load benchmark: N WebSocket clients (4 per table) play against a real server.

Starts ``pitch serve`` on 127.0.0.1 (SQLite in a temp dir unless --db), creates the
tables over HTTP, then client processes connect every seat and play: each client
"thinks" for a random time, sends an action and measures the time until the state
update that shows its action accepted (action-to-update latency). After --duration
seconds it reports p50/p95/p99 latency, errors, and lost actions (an action the client
saw accepted that the server does not have, or one never answered).

    .venv/bin/python scripts/bench_server.py --clients 40 --duration 20
    .venv/bin/python scripts/bench_server.py --clients 1000 --duration 60 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# As a browser connects: no per-message deflate offered (the server has it off) and no
# pings of its own (browsers send none; the server's pings are answered).
CONNECT: dict[str, Any] = {"max_size": 2**22, "compression": None, "ping_interval": None}


def run_loop(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a client process's coroutine on uvloop (the server's loop too): the clients
    share the machine with the servers they measure, so their CPU is the servers' loss."""
    import uvloop

    return uvloop.run(main())


def choose(game: dict[str, Any], rng: random.Random) -> str:
    legal = game["legal"]
    bids = [a for a in legal if a.startswith("bid")]
    if bids and (game["high_bid"] == 0 or "pass" not in legal):
        return str(bids[0])
    return "pass" if "pass" in legal else str(rng.choice(legal))


async def play_socket(
    ws: Any,
    token: str,
    think: tuple[float, float],
    until: float,
    out: dict[str, Any],
    rng: random.Random,
    *,
    on_error: Callable[[str], None] | None = None,
    on_state: Callable[[dict[str, Any], float], None] | None = None,
    clock: Callable[[], float] = time.time,
    closed: tuple[type[BaseException], ...] = (),
) -> bool:
    """Play one seat on one open socket until ``until`` (monotonic) or the socket ends:
    act with a random legal move after a think time whenever it is the seat's turn, and
    record each action's latency to the state that shows it. ``on_error`` gets each
    error code (default: ``out["errors"]``), ``on_state`` each state with its arrival
    time, and ``clock`` stamps ``acked_at``; an exception in ``closed`` ends the
    session as the socket closing does. Returns whether an action was still unanswered
    when it stopped."""
    acted, sent_at, seat = -1, None, None
    try:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        # One deadline for the session: a wait_for per frame cost a task each.
        async with asyncio.timeout(max(0.1, until - time.monotonic())):
            while time.monotonic() < until:
                raw = await ws.recv()
                now = time.monotonic()
                m = json.loads(raw)
                if m["type"] == "welcome":
                    seat = m["seat"]
                    continue
                if m["type"] == "error":
                    (on_error or out["errors"].append)(m["code"])
                    continue
                if m["type"] != "state":
                    continue
                if on_state is not None:
                    on_state(m, now)
                out["max_seq"] = max(out["max_seq"], m["seq"])
                last = m["last"]
                if sent_at is not None and m["seq"] > acted and last and last["seat"] == seat:
                    out["latencies"].append(now - sent_at)
                    out["acked_at"].append(clock())
                    sent_at = None
                    out["acked"] += 1
                g = m["game"]
                if m["status"] != "playing" or not g or g["turn"] != seat or m["seq"] <= acted:
                    continue
                acted = m["seq"]
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= until:
                    break
                sent_at = time.monotonic()
                out["sent"] += 1
                await ws.send(
                    json.dumps({"type": "action", "action": choose(g, rng), "seq": acted})
                )
    except (TimeoutError, *closed):
        pass  # the run is over, or the socket closed under it (as when it ends)
    return sent_at is not None


async def seat_client(
    ws_url: str,
    token: str,
    think: tuple[float, float],
    until: float,
    out: dict[str, Any],
    gate: asyncio.Semaphore,
) -> None:
    import websockets

    try:
        async with gate:  # a gradual ramp: a thousand handshakes at once time out
            ws = await websockets.connect(ws_url, open_timeout=120, **CONNECT)
    except (OSError, TimeoutError) as e:
        out["errors"].append(f"connect: {e}")
        return
    async with ws:
        if await play_socket(ws, token, think, until, out, random.Random()):
            out["unanswered"] += 1


def client_process(
    args: tuple[str, list[tuple[str, str]], tuple[float, float], float],
) -> dict[str, Any]:
    base, seats, think, until_wall = args

    async def main() -> list[dict[str, Any]]:
        until = time.monotonic() + (until_wall - time.time())
        outs = [
            {
                "latencies": [],
                "acked_at": [],
                "errors": [],
                "sent": 0,
                "acked": 0,
                "unanswered": 0,
                "max_seq": 0,
                "table": t,
            }
            for t, _ in seats
        ]
        ws = base.replace("http", "ws", 1)
        gate = asyncio.Semaphore(25)
        await asyncio.gather(
            *(
                seat_client(f"{ws}/ws/tables/{t}", tok, think, until, o, gate)
                for (t, tok), o in zip(seats, outs, strict=True)
            ),
            return_exceptions=False,
        )
        return outs

    outs = run_loop(main)
    merged: dict[str, Any] = {
        "latencies": [],
        "acked_at": [],
        "errors": [],
        "sent": 0,
        "acked": 0,
        "unanswered": 0,
    }
    max_seq: dict[str, int] = {}
    for o in outs:
        merged["latencies"] += o["latencies"]
        merged["acked_at"] += o["acked_at"]
        merged["errors"] += o["errors"]
        for k in ("sent", "acked", "unanswered"):
            merged[k] += o[k]
        max_seq[o["table"]] = max(max_seq.get(o["table"], 0), o["max_seq"])
    merged["max_seq"] = max_seq
    merged["cpu_s"] = time.process_time()
    return merged


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (Linux), or None."""
    try:
        # "pid (comm) state ppid ...": the name may hold spaces, so split after ")".
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def server_cpu(pid: int, *, system_only: bool = False) -> float | None:
    """CPU seconds the server process has used (Linux), to see who is the bottleneck:
    user plus system time, or the system (kernel) part only."""
    f = _stat(pid)
    if f is None:
        return None
    ticks = int(f[12]) if system_only else int(f[11]) + int(f[12])
    return round(ticks / os.sysconf("SC_CLK_TCK"), 2)


def tree_cpu(pid: int | None) -> float | None:
    """CPU seconds of a process and all its descendants, live or reaped (Linux): nginx's
    workers under its master, PostgreSQL's backends under the postmaster."""
    if pid is None or _stat(pid) is None:
        return None
    stats = {int(d.name): _stat(int(d.name)) for d in Path("/proc").iterdir() if d.name.isdigit()}
    children: dict[int, list[int]] = {}
    for p, f in stats.items():
        if f is not None:
            children.setdefault(int(f[1]), []).append(p)
    ticks, todo = 0, [pid]
    while todo:
        p = todo.pop()
        f = stats.get(p) or _stat(p)
        if f is not None:
            ticks += sum(int(x) for x in f[11:15])  # its user and system, and reaped children's
        todo += children.get(p, [])
    return round(ticks / os.sysconf("SC_CLK_TCK"), 2)


def seat_tables(base: str, tables: int) -> list[tuple[str, str]]:
    """``tables`` new 4-player tables, every seat claimed: (table id, token) per seat."""
    import httpx

    seats: list[tuple[str, str]] = []
    with httpx.Client(base_url=base, timeout=30) as h:
        for _ in range(tables):
            r = h.post("/api/tables", json={"rules": {"players": 4, "target": 21}})
            r.raise_for_status()
            tid = r.json()["id"]
            for s in range(4):
                c = h.post(f"/api/tables/{tid}/seats/{s}", json={"name": f"b{s}"})
                c.raise_for_status()
                seats.append((tid, c.json()["token"]))
    return seats


def by_table(seats: list[tuple[str, str]], procs: int) -> list[list[tuple[str, str]]]:
    """Whole tables per client process, so one process holds all four seats of a table."""
    chunks: list[list[tuple[str, str]]] = [[] for _ in range(procs)]
    for i in range(0, len(seats), 4):
        chunks[(i // 4) % procs] += seats[i : i + 4]
    return chunks


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--clients", type=int, default=40, help="WebSocket clients (4 per table)")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    ap.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5), help="think time range (s)")
    ap.add_argument("--ramp", type=float, default=5.0, help="extra seconds to connect")
    ap.add_argument("--client-procs", type=int, default=2, help="client processes")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    ap.add_argument("--profile", default=None, help="write a cProfile of the server here")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    if not 4 <= a.clients <= 4000 or not 1 <= a.duration <= 600:
        ap.error("--clients must be 4..4000 and --duration 1..600")
    import httpx

    tables = a.clients // 4
    tmp = tempfile.mkdtemp(prefix="pitch-bench-")
    db = a.db or f"sqlite:///{tmp}/bench.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PITCH_WS_RATE": "50",
        "PITCH_TABLES_PER_MINUTE": "100000",
        "PITCH_MAX_TABLES_PER_CLIENT": "100000",
        "PITCH_MAX_CONNECTIONS_PER_CLIENT": "100000",
        "PITCH_TABLES_OPEN_PER_CLIENT": "100000",
        "PITCH_READS_PER_MINUTE": "1000000",
        "PITCH_SEAT_CHANGES_PER_MINUTE": "1000000",
        "PITCH_MIN_BOT_DELAY": "0",
    }
    if a.profile:
        # The server profiles its event loop and writes the file when it exits (SIGTERM).
        env["PITCH_PROFILE"] = str(Path(a.profile).resolve())
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
    srv = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pitch",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            print("server did not start", file=sys.stderr)
            return 1
        seats = seat_tables(base, tables)
        procs = max(1, min(a.client_procs, len(seats)))
        chunks = by_table(seats, procs)
        until = time.time() + a.duration + a.ramp
        cpu_setup = server_cpu(srv.pid)  # creating the tables is not part of the play
        sys_setup = server_cpu(srv.pid, system_only=True)
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(procs) as pool:
            job = pool.map_async(client_process, [(base, c, tuple(a.think), until) for c in chunks])
            # Steady state: from the end of the ramp (every client connected) to the end.
            steady_from = until - a.duration
            job.wait(max(0.0, steady_from - time.time()))
            cpu_steady = server_cpu(srv.pid) if time.time() < steady_from + 1 else None
            results = job.get()
        lat = [x for r in results for x in r["latencies"]]
        errors = [e for r in results for e in r["errors"]]
        max_seq = {t: s for r in results for t, s in r["max_seq"].items()}
        cpu_end = server_cpu(srv.pid)
        sys_end = server_cpu(srv.pid, system_only=True)
        # Lost: the server must hold every event a client saw.
        lost = 0
        with httpx.Client(base_url=base, timeout=30) as h:
            for tid, seq in max_seq.items():
                lost += max(0, seq - h.get(f"/api/tables/{tid}/state").json()["seq"])
        steady_actions = sum(1 for r in results for t in r["acked_at"] if t >= steady_from)
        cpu_steady_s = (
            cpu_end - cpu_steady if cpu_end is not None and cpu_steady is not None else None
        )
        cpu_play = (
            round(cpu_end - cpu_setup, 2) if cpu_end is not None and cpu_setup is not None else None
        )
        res = {
            "load_avg": [round(x, 2) for x in os.getloadavg()],
            "clients": len(seats),
            "tables": tables,
            "duration_s": a.duration,
            "think_s": list(a.think),
            "actions": len(lat),
            "actions_per_s": round(len(lat) / a.duration, 1),
            "p50_ms": round(1000 * pct(lat, 50), 1),
            "p95_ms": round(1000 * pct(lat, 95), 1),
            "p99_ms": round(1000 * pct(lat, 99), 1),
            "max_ms": round(1000 * max(lat), 1) if lat else None,
            "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
            "errors": len(errors),
            "unanswered": sum(r["unanswered"] for r in results),
            "lost": lost,
            "server_cpu_s": cpu_end,
            "server_cpu_play_s": cpu_play,
            "server_cpu_play_system_s": (
                round(sys_end - sys_setup, 2)
                if sys_end is not None and sys_setup is not None
                else None
            ),
            # CPU seconds of the server per 1000 actions during play (connections,
            # actions, broadcasts): independent of how busy the machine is.
            "server_cpu_s_per_1000_actions": (
                round(1000 * cpu_play / len(lat), 2) if cpu_play is not None and lat else None
            ),
            # The same over the steady state only (after the ramp: no connections being
            # opened): the CPU cost of an action itself.
            "server_cpu_s_per_1000_actions_steady": (
                round(1000 * cpu_steady_s / steady_actions, 2)
                if cpu_steady_s is not None and steady_actions
                else None
            ),
            "clients_cpu_s": round(sum(r["cpu_s"] for r in results), 1),
            "db": "sqlite" if db.startswith("sqlite") else db.split(":", 1)[0],
        }
    finally:
        srv.send_signal(signal.SIGTERM)
        try:
            srv.wait(20)
        except subprocess.TimeoutExpired:
            srv.kill()
    if a.profile:
        done = Path(a.profile).exists()
        print(
            f"profile: {a.profile}" if done else "profile: the server wrote none", file=sys.stderr
        )
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>30}: {v}")
    return 0 if res["errors"] == 0 and res["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
