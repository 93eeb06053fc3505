#!/usr/bin/env python3
"""Seconds to analyse each game of a record file through a running server (issue 47,
docs/benchmarks.md "Analysis of a game"): ``POST /api/analysis`` with the game, its
job polled every 50 ms until done, then the same request again (the stored result).

    pitch serve --port 18432 --db sqlite:////tmp/bench.db --forwarded-allow-ips 127.0.0.1 &
    python scripts/bench_analysis_server.py http://127.0.0.1:18432 m4.jsonl

Each game is asked for from an address of its own (``X-Forwarded-For``, believed only
with ``--forwarded-allow-ips``), so the per-address limits do not stop the run.
"""

from __future__ import annotations

import json
import sys
import time

import httpx


def main(base: str, path: str) -> None:
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    for g, rec in enumerate(records):
        t0 = time.monotonic()
        body = {"records": [rec]}
        r = httpx.post(
            base + "/api/analysis",
            json=body,
            headers={"X-Forwarded-For": f"10.0.0.{g + 1}"},
            timeout=60,
        )
        assert r.status_code in (200, 202), r.text
        a = r.json()
        while a["state"] not in ("done", "failed"):
            time.sleep(0.05)
            a = httpx.get(f"{base}/api/analysis/{a['job']}", timeout=30).json()
        t1 = time.monotonic()
        again = httpx.post(
            base + "/api/analysis",
            json=body,
            headers={"X-Forwarded-For": f"10.0.1.{g + 1}"},
            timeout=60,
        )
        t2 = time.monotonic()
        print(
            f"game {g}: {len(rec['hands'])} hands, {a['total']} decisions, {a['state']}: "
            f"first {t1 - t0:.1f} s, again {again.status_code} in {1000 * (t2 - t1):.0f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
