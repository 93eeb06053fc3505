"""nginx in front of `pitch cluster` holds one client address to its share: requests
at once and a second per address, the processes' own header and body timeouts, its
descriptors within the limit it really has, and JSON answers for its own refusals.
One process (the routing is tested in test_cluster.py)."""

from __future__ import annotations

import contextlib
import json
import re
import select
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.helpers import ClusterProcess
from tests.support.timing import margin

LIMIT = 20
"""Requests at once per address here (PITCH_MAX_CONNECTIONS_PER_CLIENT; 256 by default)."""
FLOOD = 100
BODY_SECONDS = 4
"""Between two reads of a body (the held requests below send a byte every 0.3 s)."""
BURST = 150


def _client(address: str) -> httpx.Client:
    """A client from another loopback address (nginx listens on 127.0.0.1, which any
    127.x address reaches): another client, as nginx counts them."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20)


def _json_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert set(body) == {"detail", "code"} and body["code"] == code, body
    return dict(body)


def _answer(buf: bytes) -> tuple[int, dict[str, Any]] | None:
    """The status and JSON body of a whole HTTP answer in ``buf``; None before it is whole."""
    head, sep, body = buf.partition(b"\r\n\r\n")
    if not sep:
        return None
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    assert length is not None, head
    if len(body) < int(length[1]):
        return None
    return int(head.split()[1]), json.loads(body[: int(length[1])])


def _closed_within(s: socket.socket, seconds: float) -> float:
    """Seconds until the peer closed ``s`` (reading and dropping whatever came first)."""
    start = time.monotonic()
    s.settimeout(seconds)
    try:
        while s.recv(4096):
            pass
    except ConnectionResetError:
        pass  # reset_timedout_connection: nginx resets a timed-out connection
    except TimeoutError:
        raise AssertionError(f"still open after {seconds} s") from None
    return time.monotonic() - start


def test_one_address_cannot_exhaust_nginx(db: str, run_dir: Path) -> None:
    c = ClusterProcess(
        db,
        run_dir,
        processes=1,
        args=("--client-rate", "1", "--client-burst", str(BURST)),
        env={
            "PITCH_MAX_CONNECTIONS_PER_CLIENT": str(LIMIT),
            "PITCH_HEADER_SECONDS": "1",
            "PITCH_BODY_SECONDS": str(BODY_SECONDS),
        },
    )
    c.start()
    try:
        _check(c, run_dir)
    finally:
        c.stop()


def _check(c: ClusterProcess, run_dir: Path) -> None:
    # Descriptors: a worker's limit is one nginx can set (it asked for 65,536 and
    # could not: setrlimit failed and 20,000 stayed), and its connections fit in it.
    conf = (run_dir / "nginx.conf").read_text()
    nofile = int(re.findall(r"worker_rlimit_nofile (\d+);", conf)[0])
    conns = int(re.findall(r"worker_connections (\d+);", conf)[0])
    assert conns < nofile, conf
    assert "setrlimit" not in (run_dir / "nginx-error.log").read_text()

    # One address opens FLOOD requests whose bodies never finish, each claiming another
    # address in every header a proxy might believe: LIMIT are held (their bodies
    # trickle in), the others are answered 429 at once, as JSON.
    socks = []
    for i in range(FLOOD):
        s = socket.create_connection(("127.0.0.1", c.port), timeout=20)
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n"
            + f"X-Forwarded-For: 10.9.{i}.1\r\nX-Real-IP: 10.8.{i}.1\r\n".encode()
            + f"Forwarded: for=10.7.{i}.1\r\n\r\n".encode()
            + b"{"
        )
        socks.append(s)
    bufs = {s: b"" for s in socks}
    answered: dict[socket.socket, tuple[int, dict[str, Any]]] = {}
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(0.3):
            for s in socks:
                if s not in answered:
                    with contextlib.suppress(OSError):  # an answered one nginx closed
                        s.send(b" ")  # one byte: never the 1,000 the body needs

    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    deadline = time.monotonic() + margin(30)  # generous: before the limits none is ever answered
    while len(answered) < FLOOD - LIMIT and time.monotonic() < deadline:
        readable, _, _ = select.select([s for s in socks if s not in answered], [], [], 0.2)
        for s in readable:
            bufs[s] += s.recv(4096)
            got = _answer(bufs[s])
            if got is not None:
                answered[s] = got
    try:
        assert len(answered) == FLOOD - LIMIT, f"{len(answered)} of {FLOOD} refused"
        for status, body in answered.values():
            assert status == 429 and body["code"] == "too_many_requests", body
            assert body["detail"] == "too many connections from this address at once", body
        # While they are held, another address is served (health, a new table) ...
        with _client("127.0.0.2") as other:
            assert other.get(f"{c.url}/api/health").status_code == 200
            assert other.post(f"{c.url}/api/tables", json={}).status_code == 201
        # ... and the flooding one is not.
        with _client("127.0.0.1") as flooder:
            _json_error(flooder.get(f"{c.url}/api/health"), 429, "too_many_requests")
    finally:
        stop.set()
        t.join()
    # A body that stops arriving is cut after PITCH_BODY_SECONDS (it was nginx's 60 s).
    held = [s for s in socks if s not in answered]
    waited = [_closed_within(s, 30) for s in held]
    print(f"held bodies closed after {min(waited):.1f}-{max(waited):.1f} s")
    for s in socks:
        s.close()
    with _client("127.0.0.1") as again:  # room again for the address
        assert again.get(f"{c.url}/api/health").status_code == 200

    # Headers that stop arriving: cut after PITCH_HEADER_SECONDS.
    s = socket.create_connection(("127.0.0.1", c.port), source_address=("127.0.0.4", 0))
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
    print(f"half-sent headers closed after {_closed_within(s, 30):.1f} s")
    s.close()

    with _client("127.0.0.5") as big:
        # Over nginx's limit: its refusal, as JSON (it was nginx's HTML page).
        r = big.post(
            f"{c.url}/api/records/verify",
            content=b"[" + b" " * (4 * 1024 * 1024) + b"]",
            headers={"content-type": "application/json"},
        )
        assert _json_error(r, 413, "too_large")["detail"] == (
            "the body may be at most 2097152 bytes"
        )
        r = big.post(f"{c.url}/api/tables", json={"rules": {}, "pad": "x" * 70_000})
        assert "65536 bytes" in _json_error(r, 413, "too_large")["detail"]

    # Requests a second: a burst passes whole (a page load), then 429, as JSON.
    with _client("127.0.0.3") as rapid:
        codes = [rapid.get(f"{c.url}/api/health") for _ in range(BURST + 150)]
    assert [r.status_code for r in codes[: BURST + 1]] == [200] * (BURST + 1)
    refused = [r for r in codes if r.status_code != 200]
    assert refused, "no request was refused"
    for r in refused:
        body = _json_error(r, 429, "too_many_requests")
        assert body["detail"] == "too many requests from this address; wait a little", body
