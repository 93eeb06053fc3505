"""Memory of idle sockets (issue 43): a server's RSS before, with N idle seated
sockets from a few loopback addresses, and after they close (at once and a minute
later). Prints one JSON line.

    PYTHONPATH=src .venv/bin/python scripts/bench_idle_sockets.py --sockets 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.helpers import ServerProcess
from tests.support.tables import ws_url


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def hold(srv: ServerProcess, n: int, addresses: list[str]) -> list[Any]:
    seats = []
    for a in addresses:
        with httpx.Client(transport=httpx.HTTPTransport(local_address=a), timeout=30) as c:
            t = c.post(f"{srv.base}/api/tables", json={"rules": {"players": 2}}).json()["id"]
            r = c.post(f"{srv.base}/api/tables/{t}/seats/0", json={"name": "idle"}).json()
            seats.append((a, t, r["token"]))

    async def one(i: int) -> Any:
        a, t, token = seats[i % len(seats)]
        ws = await websockets.connect(ws_url(srv.base, t), local_addr=(a, 0), open_timeout=60)
        await ws.send(json.dumps({"type": "auth", "token": token}))
        await ws.recv()  # welcome
        return ws

    out: list[Any] = []
    while len(out) < n:
        out += await asyncio.gather(*(one(len(out) + i) for i in range(min(50, n - len(out)))))
    return out


async def close_all(held: list[Any]) -> None:
    await asyncio.gather(*(ws.close() for ws in held))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sockets", type=int, default=2000)
    ap.add_argument("--addresses", type=int, default=8)
    ap.add_argument("--after", type=float, default=60.0, help="seconds to wait after closing")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    srv = ServerProcess(f"sqlite:///{tmp}/bench.db", log=tmp / "server.log")
    srv.start()
    try:
        assert srv.proc is not None
        pid = srv.proc.pid
        time.sleep(2)
        before = rss_kib(pid)
        addresses = [f"127.0.1.{i + 1}" for i in range(args.addresses)]
        loop = asyncio.new_event_loop()
        held = loop.run_until_complete(hold(srv, args.sockets, addresses))
        time.sleep(2)
        holding = rss_kib(pid)
        sockets = httpx.get(f"{srv.base}/api/health").json()["sockets"]
        loop.run_until_complete(close_all(held))
        loop.close()
        time.sleep(2)
        closed = rss_kib(pid)
        time.sleep(args.after)
        later = rss_kib(pid)
        print(
            json.dumps(
                {
                    "sockets": args.sockets,
                    "health_sockets": sockets,
                    "rss_before_kib": before,
                    "rss_holding_kib": holding,
                    "kib_per_socket": round((holding - before) / args.sockets, 1),
                    "rss_closed_kib": closed,
                    f"rss_{args.after:g}s_later_kib": later,
                    "above_start_later_mib": round((later - before) / 1024, 1),
                }
            )
        )
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
