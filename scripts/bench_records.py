#!/usr/bin/env python3
"""Large record checks beside play: does ``POST /api/records/verify`` hold up others?

Starts ``pitch serve`` on 127.0.0.1 (SQLite in a temp dir) trusting 127.0.0.1's
``X-Forwarded-For``, so that each check comes from an address of its own. A player
plays a 2-player table against a random bot (no bot delay) and times each bot move
(its action's echo to the bot's answer); another client reads the table
(``GET /api/tables/{id}``) every 20 ms. After a quiet spell, ``--checks`` addresses
each send one record of ``--hands`` hands (2 players: 3,620 hands is 2.09 MB, just
under the 2 MiB bound) at once. It reports both latencies in the quiet spell and
while the checks run, the checks' statuses and times, and the resident memory (RSS)
of the server and of all its children before, at the peak, and after.

    .venv/bin/python scripts/bench_records.py --checks 10 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_server import CONNECT, free_port, pct

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.records import long_record


def rss_mib(pid: int) -> float:
    """Resident memory of a process (Linux ``/proc``), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]
    return out


def memory(pid: int) -> dict[str, float]:
    kids = []
    for c in children(pid):
        with contextlib.suppress(OSError):  # a child that just ended
            kids.append(rss_mib(c))
    return {"server_mib": round(rss_mib(pid), 1), "children_mib": round(sum(kids), 1)}


def summary(xs: list[float]) -> dict[str, Any]:
    return {
        "n": len(xs),
        "p50_ms": round(1000 * pct(xs, 50), 1),
        "max_ms": round(1000 * max(xs), 1) if xs else None,
    }


async def run(base: str, body: bytes, checks: int, quiet: float, pid: int) -> dict[str, Any]:
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base, timeout=120) as h:
        r = await h.post(
            "/api/tables",
            json={
                "rules": {"players": 2, "target": 999},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                "options": {"bot_delay": 0},
            },
        )
        r.raise_for_status()
        tid = r.json()["id"]
        r = await h.post(f"/api/tables/{tid}/seats/0", json={"name": "p"})
        r.raise_for_status()
        token = r.json()["token"]
        gets: list[tuple[float, float]] = []
        bots: list[tuple[float, float]] = []
        stop = asyncio.Event()

        async def reader() -> None:
            while not stop.is_set():
                t0 = time.monotonic()
                (await h.get(f"/api/tables/{tid}")).raise_for_status()
                gets.append((t0, time.monotonic()))
                await asyncio.sleep(0.02)

        async def player() -> None:
            # A round: our action sent until it is our turn again (the server took the
            # action, the bot moved, the server took its move).
            rng = random.Random(1)
            ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{tid}"
            async with websockets.connect(ws_url, **CONNECT) as ws:
                await ws.send(json.dumps({"type": "auth", "token": token}))
                sent: float | None = None
                acted = -1
                while not stop.is_set():
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    except TimeoutError:
                        continue
                    if m.get("type") == "error":
                        print("socket error:", m, file=sys.stderr)
                    g = m.get("game") if m.get("type") == "state" else None
                    if not g or g["turn"] != 0 or not g["legal"] or m["seq"] <= acted:
                        continue
                    acted = m["seq"]
                    if sent is not None:
                        bots.append((sent, time.monotonic()))
                    await asyncio.sleep(0.05)  # a player's pace, not a flood
                    a = rng.choice(g["legal"])
                    sent = time.monotonic()
                    await ws.send(json.dumps({"type": "action", "action": a, "seq": m["seq"]}))

        async def check(i: int) -> tuple[int, float]:
            t0 = time.monotonic()
            r = await h.post(
                "/api/records/verify",
                content=body,
                headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.9.0.{i}"},
            )
            return r.status_code, time.monotonic() - t0

        peak = {"server_mib": 0.0, "children_mib": 0.0}

        async def sample() -> None:
            while not stop.is_set():
                m = memory(pid)
                for k in peak:
                    peak[k] = max(peak[k], m[k])
                await asyncio.sleep(0.05)

        tasks = [asyncio.create_task(f()) for f in (reader, player, sample)]
        await asyncio.sleep(quiet)
        before = memory(pid)
        t0 = time.monotonic()
        results = await asyncio.gather(*(check(i) for i in range(checks)))
        t1 = time.monotonic()
        await asyncio.sleep(3)
        after = memory(pid)
        stop.set()
        await asyncio.gather(*tasks)
    return {
        "checks": checks,
        "statuses": sorted(s for s, _ in results),
        "check_s": sorted(round(t, 2) for _, t in results),
        "checks_wall_s": round(t1 - t0, 2),
        "get_quiet": summary([b - a for a, b in gets if b < t0]),
        "get_during_checks": summary([b - a for a, b in gets if b >= t0 and a <= t1]),
        "bot_round_quiet": summary([b - a for a, b in bots if b < t0]),
        "bot_round_during_checks": summary([b - a for a, b in bots if b >= t0 and a <= t1]),
        "rss_before": before,
        "rss_peak": peak,
        "rss_3s_after": after,
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--checks", type=int, default=10, help="addresses checking at once")
    ap.add_argument("--hands", type=int, default=3620, help="hands of the record each sends")
    ap.add_argument("--quiet", type=float, default=3.0, help="seconds measured before")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    if not 1 <= a.checks <= 100 or not 1 <= a.hands <= 5000:
        ap.error("--checks must be 1..100 and --hands 1..5000")
    import httpx

    body = json.dumps({"records": [long_record(a.hands)]}, separators=(",", ":")).encode()
    tmp = tempfile.mkdtemp(prefix="pitch-bench-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PITCH_FORWARDED_ALLOW_IPS": "127.0.0.1",
        "PITCH_READS_PER_MINUTE": "1000000",
        "PITCH_MIN_BOT_DELAY": "0",
        "PITCH_WS_RATE": "2000",
        "PITCH_WS_BURST": "2000",
    }
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
    cmd = [sys.executable, "-m", "pitch", "serve", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{tmp}/bench.db", "--log-level", "warning", "--bot-workers", "1"]
    srv = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
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
        while httpx.get(base + "/api/health", timeout=5).json()["bot_workers"]["ready"] < 1:
            time.sleep(0.2)  # the bot worker compiles or loads its search kernels first
        res = {"body_bytes": len(body), "hands": a.hands, "load_avg": os.getloadavg()[:1]}
        res |= asyncio.run(run(base, body, a.checks, a.quiet, srv.pid))
    finally:
        srv.send_signal(signal.SIGTERM)
        try:
            srv.wait(20)
        except subprocess.TimeoutExpired:
            srv.kill()
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>24}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
