#!/usr/bin/env python3
"""Bot fairness under load: how long an unrelated table's bot waits while other
addresses flood the bot workers (issue 43).

Starts ``pitch serve`` on 127.0.0.1 (SQLite in a temp dir). Each of ``--addresses``
client addresses (127.0.0.10, 127.0.0.11, ...; any 127.x reaches the server) makes
``--tables`` heads-up tables whose bot and absent human's stand-in are the costliest
bot a request may ask (``--flood-bot``, 2 s a decision), and keeps them going with a
spectator socket each. Once every flooding table has moved, one more table from
127.0.0.1 (a human played by this script, who answers at once, and ``--bot``) plays
for ``--duration`` seconds. Reported: the unrelated bot's decision delay (from the state
that puts it on turn to the state with its move, as a client sees them: the server's
bot pace is in it), median, 90th percentile and max; the same less the bot's own time
budget (its ``time`` option: ``master`` thinks 1 s) and the server's least bot pace,
i.e. how long it waited beyond what it asked for (the issue's bar: at most 0.5 s; a
decision with one legal move is quicker than its budget, so this may be below 0); and
the flooders' moves meanwhile.

    .venv/bin/python scripts/bench_bot_fairness.py --addresses 20 --tables 2 --duration 60
    .venv/bin/python scripts/bench_bot_fairness.py --addresses 20 --tables 2 --duration 60 \
        --bot master

Run the server from another source tree (a before/after comparison) with PYTHONPATH.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_server import free_port, pct

CONNECT: dict[str, Any] = {"max_size": 2**22, "compression": None, "ping_interval": None}


async def run(a: argparse.Namespace, base: str) -> dict[str, Any]:
    import httpx
    import websockets
    from websockets.typing import Origin

    flood_body = {
        "rules": {"players": 2, "target": 21},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": a.flood_bot}],
        "options": {"grace_seconds": 1, "substitute": a.flood_bot, "bot_delay": 0},
    }
    addrs = [f"127.0.0.{10 + i}" for i in range(a.addresses)]
    flood: list[tuple[str, str]] = []
    for addr in addrs:
        tr = httpx.AsyncHTTPTransport(local_address=addr)
        async with httpx.AsyncClient(base_url=base, transport=tr, timeout=30) as h:
            for _ in range(a.tables):
                r = await h.post("/api/tables", json=flood_body)
                r.raise_for_status()
                t = r.json()["id"]
                c = await h.post(f"/api/tables/{t}/seats/0", json={"name": "flood"})
                c.raise_for_status()
                flood.append((addr, t))
    stop = asyncio.Event()
    moves = {t: 0 for _, t in flood}

    async def watch(addr: str, t: str) -> None:
        url = base.replace("http", "ws", 1) + f"/ws/tables/{t}"
        at: dict[str, Any] = {**CONNECT, "origin": Origin(base), "local_addr": (addr, 0)}
        async with websockets.connect(url, **at) as ws:
            await ws.send(json.dumps({"type": "spectate"}))
            seq = -1
            while not stop.is_set():
                m = json.loads(await ws.recv())
                if m["type"] == "state" and m["seq"] > seq:
                    moves[t] += seq >= 0
                    seq = m["seq"]

    tasks = [asyncio.create_task(watch(addr, t)) for addr, t in flood]
    start = time.monotonic()
    # Every flooding table has moved once: the flood is in its steady state (a client
    # never seen before may be served early once).
    while min(moves.values()) < 1 and time.monotonic() - start < a.warmup:
        await asyncio.sleep(0.2)
    warmed = round(time.monotonic() - start, 1)
    flood_before = sum(moves.values())

    body = {
        "rules": {"players": 2, "target": 21},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": a.bot}],
        "options": {"bot_delay": 0},
    }
    async with httpx.AsyncClient(base_url=base, timeout=30) as h:
        r = await h.post("/api/tables", json=body)
        r.raise_for_status()
        table = r.json()["id"]
        token = (await h.post(f"/api/tables/{table}/seats/0", json={"name": "ann"})).json()["token"]
    delays: list[float] = []
    by: dict[str, int] = {}
    waiting: list[int] = []

    async def play() -> None:
        rng = random.Random(1)
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
        async with websockets.connect(url, origin=Origin(base), **CONNECT) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            due: float | None = None
            while not stop.is_set():
                m = json.loads(await ws.recv())
                if m["type"] != "state" or m["status"] != "playing":
                    continue
                now = time.monotonic()
                last = m.get("last") or {}
                if due is not None and last.get("seat") == 1:
                    delays.append(now - due)
                    by[last.get("by", "?")] = by.get(last.get("by", "?"), 0) + 1
                    due = None
                g = m["game"] or {}
                if g.get("turn") == 1:
                    due = now if due is None else due
                elif g.get("turn") == 0 and g.get("legal"):
                    legal = g["legal"]
                    bids = [x for x in legal if x.startswith("bid")]
                    act = bids[0] if bids and g["high_bid"] == 0 else None
                    act = act or ("pass" if "pass" in legal else rng.choice(legal))
                    await ws.send(json.dumps({"type": "action", "action": act, "seq": m["seq"]}))

    player = asyncio.create_task(play())
    async with httpx.AsyncClient(base_url=base, timeout=30) as h:
        end = time.monotonic() + a.duration
        while time.monotonic() < end:
            health = (await h.get("/api/health")).json()["bot_workers"]
            if "waiting" in health:
                waiting.append(health["waiting"]["clients"])
            await asyncio.sleep(1.0)
    stop.set()
    for task in [*tasks, player]:
        task.cancel()
    await asyncio.gather(*tasks, player, return_exceptions=True)
    budget = _budget(a.bot) + PACE
    over = [d - budget for d in delays]
    return {
        "addresses": a.addresses,
        "flooding_tables": len(flood),
        "flood_bot": a.flood_bot,
        "bot": a.bot,
        "bot_workers": a.workers,
        "warmup_s": warmed,
        "duration_s": a.duration,
        "decisions": len(delays),
        "moved_by": by,
        "delay_median_s": round(statistics.median(delays), 2) if delays else None,
        "delay_p90_s": round(pct(delays, 90), 2) if delays else None,
        "delay_max_s": round(max(delays), 2) if delays else None,
        "budget_s": budget,
        "over_budget_median_s": round(statistics.median(over), 2) if over else None,
        "over_budget_max_s": round(max(over), 2) if over else None,
        "flood_moves_meanwhile": sum(moves.values()) - flood_before,
        "clients_waiting_max": max(waiting) if waiting else None,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "table": table,
        "delays_s": [round(d, 2) for d in delays],
    }


PACE = 0.1
"""The server's least bot pace (``PITCH_MIN_BOT_DELAY``, 0.1 s by default): part of every delay."""


def _budget(spec: str) -> float:
    """The time cap a bot of ``spec`` thinks by (0 for a bot that does not search)."""
    from pitch.bots.registry import frozen_spec, parse_bot_spec

    cap = parse_bot_spec(frozen_spec(spec)).options.get("time")
    return float(cap) if isinstance(cap, int | float) else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--addresses", type=int, default=20, help="flooding client addresses")
    ap.add_argument("--tables", type=int, default=2, help="flooding tables per address")
    ap.add_argument("--flood-bot", default="ismcts:time=2", help="the flooders' bot")
    ap.add_argument("--bot", default="heuristic", help="the unrelated table's bot")
    ap.add_argument("--workers", type=int, default=2, help="bot workers (--bot-workers)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=120.0, help="most seconds of warm-up")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    if not (1 <= a.addresses <= 200 and 1 <= a.tables <= 8 and 1 <= a.duration <= 600):
        ap.error("--addresses 1..200, --tables 1..8, --duration 1..600")
    import httpx

    tmp = tempfile.mkdtemp(prefix="pitch-fairness-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PITCH_TABLES_PER_MINUTE": "100000",
        "PITCH_READS_PER_MINUTE": "1000000",
        "PITCH_SEAT_CHANGES_PER_MINUTE": "1000000",
    }
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
    srv = subprocess.Popen(
        [
            *(sys.executable, "-m", "pitch", "serve", "--port", str(port)),
            *("--db", f"sqlite:///{tmp}/bench.db", "--log-level", "warning"),
            *("--bot-workers", str(a.workers)),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                h = httpx.get(base + "/api/health", timeout=1).json()
                if h["bot_workers"]["ready"] >= a.workers:
                    break
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            time.sleep(0.2)
        else:
            print("server did not start", file=sys.stderr)
            return 1
        res = asyncio.run(run(a, base))
        text = (Path(tmp) / "server.log").read_text(errors="replace")
        table = res.pop("table")
        # The heuristic played for the unrelated bot (it waited or thought past the
        # bound), and workers ended for overrunning (under a loaded CPU).
        res["unrelated_fallbacks"] = text.count(
            f"the heuristic played for bot {a.bot} at table {table}"
        )
        res["no_worker_free"] = text.count("no bot worker was free")
        res["workers_ended"] = text.count("its worker was ended")
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
