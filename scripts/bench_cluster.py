#!/usr/bin/env python3
"""Load benchmark through nginx: ``pitch cluster`` (N server processes on PostgreSQL
behind nginx), N WebSocket clients (4 per table) playing as in scripts/bench_server.py,
and optionally one process killed (SIGKILL) or stopped (SIGSTOP, ``--signal STOP``: a
hung process) in the middle of the run.

Clients reconnect with their seat token when their socket closes (as the browser
does), so after a kill the run measures failover as players feel it: per table, the
longest pause between two states around the kill, and whether every table went on.

    .venv/bin/python scripts/bench_cluster.py --clients 400 --duration 30
    .venv/bin/python scripts/bench_cluster.py --clients 4000 --duration 60 --ramp 40
    .venv/bin/python scripts/bench_cluster.py --clients 4000 --duration 60 --ramp 40 --kill-at 30
    .venv/bin/python scripts/bench_cluster.py --clients 1000 --duration 40 --ramp 15 \
        --kill-at 15 --signal STOP
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
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import (
    CONNECT,
    by_table,
    free_port,
    pct,
    play_socket,
    run_loop,
    seat_tables,
    server_cpu,
    tree_cpu,
)


async def seat_client(
    ws_url: str,
    token: str,
    think: tuple[float, float],
    until: float,
    kill_at: float | None,
    out: dict[str, Any],
    gate: asyncio.Semaphore,
) -> None:
    import websockets

    rng = random.Random()
    first = True
    while time.monotonic() < until:
        try:
            if first:
                async with gate:  # a gradual ramp: thousands of handshakes at once time out
                    ws = await websockets.connect(ws_url, open_timeout=120, **CONNECT)
            else:
                ws = await websockets.connect(ws_url, open_timeout=60, **CONNECT)
                out["reconnects"] += 1
            first = False
        except (OSError, TimeoutError, websockets.WebSocketException) as e:
            out["connect_failures"].append(f"{type(e).__name__}: {e}")
            await asyncio.sleep(0.3 + rng.random())
            continue

        def on_error(code: str) -> None:
            # server_busy: the table on its way to a new owner, during a failover only.
            out["busy" if code == "server_busy" else "errors"].append(code)

        def on_state(m: dict[str, Any], now: float) -> None:
            if kill_at is not None and m["seq"] > out["max_seq"]:
                if now < kill_at:
                    out["last_before_kill"] = now
                elif out["first_after_kill"] is None:
                    out["first_after_kill"] = now

        async with ws:
            in_flight = await play_socket(
                ws,
                token,
                think,
                until,
                out,
                rng,
                on_error=on_error,
                on_state=on_state,
                clock=time.monotonic,
                closed=(OSError, websockets.WebSocketException),
            )
        if in_flight:
            # In flight when the socket closed: played again on the next connection.
            out["interrupted"] += 1
        if time.monotonic() < until:
            await asyncio.sleep(0.2 + 0.3 * rng.random())  # the browser's backoff, roughly


def client_process(
    args: tuple[str, list[tuple[str, str]], tuple[float, float], float, float | None],
) -> dict[str, Any]:
    base, seats, think, until_wall, kill_wall = args

    async def main() -> list[dict[str, Any]]:
        offset = time.monotonic() - time.time()
        until = until_wall + offset
        kill_at = kill_wall + offset if kill_wall is not None else None
        outs = [
            {
                "latencies": [],
                "acked_at": [],
                "errors": [],
                "busy": [],
                "connect_failures": [],
                "sent": 0,
                "acked": 0,
                "interrupted": 0,
                "reconnects": 0,
                "max_seq": 0,
                "last_before_kill": None,
                "first_after_kill": None,
                "table": t,
            }
            for t, _ in seats
        ]
        ws = base.replace("http", "ws", 1)
        gate = asyncio.Semaphore(25)
        await asyncio.gather(
            *(
                seat_client(f"{ws}/ws/tables/{t}", tok, think, until, kill_at, o, gate)
                for (t, tok), o in zip(seats, outs, strict=True)
            )
        )
        for o in outs:  # back to wall-clock time, comparable between processes
            o["acked_at"] = [x - offset for x in o["acked_at"]]
            for k in ("last_before_kill", "first_after_kill"):
                if o[k] is not None:
                    o[k] -= offset
        return outs

    outs = run_loop(main)
    return {"seats": outs, "cpu_s": time.process_time()}


def free_ports(n: int) -> int:
    """The first of ``n`` consecutive free ports."""
    while True:
        base = free_port()
        if base + n > 65535:
            continue
        try:
            for p in range(base, base + n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return base


def start_cluster(
    a: argparse.Namespace, run_dir: Path
) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
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
    port, base_port = free_port(), free_ports(a.processes)
    cmd = [
        *(sys.executable, "-m", "pitch", "cluster", "--processes", str(a.processes)),
        *("--port", str(port), "--base-port", str(base_port), "--run-dir", str(run_dir)),
        *(("--db", a.db) if a.db else ()),
        # Every client is 127.0.0.1: nginx's request rate per address out of the way.
        *("--client-rate", "1000000", "--client-burst", "1000000"),
    ]
    proc = subprocess.Popen(
        cmd, stdout=(run_dir / "cluster.out").open("wb"), stderr=subprocess.STDOUT, env=env
    )
    state = run_dir / "cluster.json"
    deadline = time.monotonic() + 300
    while not state.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError((run_dir / "cluster.out").read_text()[-3000:])
        time.sleep(0.2)
    return proc, json.loads(state.read_text())


def _watch_exit(pid: int, until: float) -> list[float]:
    """A list that gets the time ``pid`` exits (polled in a thread until ``until``)."""
    import threading

    seen: list[float] = []

    def poll() -> None:
        while time.time() < until:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                seen.append(time.time())
                return
            time.sleep(0.05)

    threading.Thread(target=poll, daemon=True).start()
    return seen


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--clients", type=int, default=400, help="WebSocket clients (4 per table)")
    ap.add_argument("--processes", type=int, default=3, help="server processes")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    ap.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5), help="think time range (s)")
    ap.add_argument("--ramp", type=float, default=10.0, help="extra seconds to connect")
    ap.add_argument("--client-procs", type=int, default=2, help="client processes")
    ap.add_argument("--db", default=None, help="PostgreSQL URL (default: a throwaway one)")
    ap.add_argument(
        "--kill-at", type=float, default=None, help="SIGKILL one process this many s into play"
    )
    ap.add_argument(
        "--signal",
        choices=("KILL", "STOP"),
        default="KILL",
        help="what --kill-at sends: KILL (a crash) or STOP (a hung process; the "
        "supervisor kills it once its lease has run out)",
    )
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    if not 4 <= a.clients <= 4000 or not 1 <= a.duration <= 600:
        ap.error("--clients must be 4..4000 and --duration 1..600")
    import httpx

    run_dir = Path(tempfile.mkdtemp(prefix="pitch-bench-cluster-"))
    cluster, info = start_cluster(a, run_dir)
    base = info["url"]
    try:
        seats = seat_tables(base, a.clients // 4)
        procs = max(1, min(a.client_procs, len(seats)))
        chunks = by_table(seats, procs)
        until = time.time() + a.duration + a.ramp
        steady_from = until - a.duration
        kill_wall = steady_from + a.kill_at if a.kill_at is not None else None
        victim = info["processes"][0]
        pids = [p["pid"] for p in info["processes"]]
        cpu0 = {p: server_cpu(p) for p in pids}
        nginx_cpu0 = tree_cpu(info["nginx_pid"])
        pg_cpu0 = tree_cpu(info.get("postgres_pid"))
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(procs) as pool:
            job = pool.map_async(
                client_process, [(base, c, tuple(a.think), until, kill_wall) for c in chunks]
            )
            if kill_wall is not None:
                job.wait(max(0.0, kill_wall - time.time()))
                os.kill(victim["pid"], signal.Signals[f"SIG{a.signal}"])
                killed_at = time.time()
                gone = _watch_exit(victim["pid"], until)
            results = job.get()
        outs = [o for r in results for o in r["seats"]]
        cpu = {p: server_cpu(p) for p in pids}
        nginx_cpu = tree_cpu(info["nginx_pid"])
        pg_cpu = tree_cpu(info.get("postgres_pid"))
        lat = [x for o in outs for x in o["latencies"]]
        timed = sorted(
            (t, x) for o in outs for t, x in zip(o["acked_at"], o["latencies"], strict=True)
        )
        max_seq: dict[str, int] = {}
        for o in outs:
            max_seq[o["table"]] = max(max_seq.get(o["table"], 0), o["max_seq"])
        lost = 0
        with httpx.Client(base_url=base, timeout=30) as h:
            for tid, seq in max_seq.items():
                lost += max(0, seq - h.get(f"/api/tables/{tid}/state").json()["seq"])
        res: dict[str, Any] = {
            "load_avg": [round(x, 2) for x in os.getloadavg()],
            "processes": a.processes,
            "clients": len(seats),
            "tables": len(max_seq),
            "duration_s": a.duration,
            "actions": len(lat),
            "actions_per_s": round(len(lat) / a.duration, 1),
            "p50_ms": round(1000 * pct(lat, 50), 1),
            "p95_ms": round(1000 * pct(lat, 95), 1),
            "p99_ms": round(1000 * pct(lat, 99), 1),
            "max_ms": round(1000 * max(lat), 1) if lat else None,
            "errors": sum(len(o["errors"]) for o in outs),
            "connect_failures": sum(len(o["connect_failures"]) for o in outs),
            "lost": lost,
            "reconnects": sum(o["reconnects"] for o in outs),
            "server_cpu_s": {
                p["instance"]: (
                    round(cpu[p["pid"]] - cpu0[p["pid"]], 1)
                    if cpu[p["pid"]] is not None and cpu0[p["pid"]] is not None
                    else None
                )
                for p in info["processes"]
            },
            "nginx_cpu_s": (
                round(nginx_cpu - nginx_cpu0, 1)
                if nginx_cpu is not None and nginx_cpu0 is not None
                else None
            ),
            "postgres_cpu_s": (
                round(pg_cpu - pg_cpu0, 1) if pg_cpu is not None and pg_cpu0 is not None else None
            ),
            "clients_cpu_s": round(sum(r["cpu_s"] for r in results), 1),
        }
        if kill_wall is not None:
            # Per table: the longest pause between a state before the kill and the
            # first new state after it, over its seats (the table's failover pause).
            pause: dict[str, float] = {}
            went_on: dict[str, bool] = {}
            for o in outs:
                t = o["table"]
                went_on[t] = went_on.get(t, False) or o["first_after_kill"] is not None
                if o["first_after_kill"] is not None and o["last_before_kill"] is not None:
                    p = o["first_after_kill"] - max(o["last_before_kill"], killed_at)
                    pause[t] = max(pause.get(t, 0.0), p)
            moved = sorted(p for p in pause.values() if p > 2.0)
            after = [x for t, x in timed if t >= killed_at + 15]
            before = [x for t, x in timed if t < killed_at]
            res["kill"] = {
                "instance": victim["instance"],
                "signal": f"SIG{a.signal}",
                "at_s": a.kill_at,
                # A stopped process is killed by the supervisor once its lease runs out.
                "exited_after_s": round(gone[0] - killed_at, 2) if gone else None,
                "tables_went_on": sum(went_on.values()),
                "tables_stuck": sum(1 for v in went_on.values() if not v),
                "tables_paused_over_2s": len(moved),
                "pause_after_kill_s_p50": round(pct(moved, 50), 2) if moved else None,
                "pause_after_kill_s_max": round(max(pause.values()), 2) if pause else None,
                "busy_answers": sum(len(o["busy"]) for o in outs),
                "interrupted_actions": sum(o["interrupted"] for o in outs),
                "p99_ms_before_kill": round(1000 * pct(before, 99), 1),
                "p99_ms_from_15s_after_kill": round(1000 * pct(after, 99), 1),
            }
            # Latency per 5 s window around the kill: the spike.
            windows: dict[int, list[float]] = {}
            for t, x in timed:
                windows.setdefault(int((t - killed_at) // 5) * 5, []).append(x)
            res["kill"]["p99_ms_by_5s_window"] = {
                str(k): round(1000 * pct(v, 99), 1) for k, v in sorted(windows.items())
            }
    finally:
        cluster.send_signal(signal.SIGTERM)
        try:
            cluster.wait(60)
        except subprocess.TimeoutExpired:
            cluster.kill()
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>24}: {v}")
    ok = res["errors"] == 0 and res["lost"] == 0
    if "kill" in res:
        ok = ok and res["kill"]["tables_stuck"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
