"""Ports for the servers the suite starts, outside the kernel's ephemeral range.

A port the kernel hands out for ``bind(0)`` comes from the range it also gives every
outgoing connection: with thousands of client sockets open (the flood tests, a browser,
several servers side by side) one of them could take it between the check and the
server's own bind, and the server exited with "address already in use". Ports below
(or above) ``ip_local_port_range`` are never taken that way; a random one of them,
checked free, is left only to another test picking the same one at the same moment.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _ephemeral() -> tuple[int, int]:
    try:
        low, high = (int(x) for x in _RANGE.read_text().split())
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default
    return low, high


def _candidates() -> tuple[int, int]:
    """The widest stretch of ports, from 10000 on, outside the ephemeral range."""
    low, high = _ephemeral()
    below, above = (10000, low - 1), (high + 1, 65535)
    return below if below[1] - below[0] >= above[1] - above[0] else above


def free_ports(n: int = 1) -> int:
    """The first of ``n`` consecutive free ports on 127.0.0.1."""
    first, last = _candidates()
    rng = random.Random()
    for _ in range(500):
        base = rng.randrange(first, last - n + 1)
        socks: list[socket.socket] = []
        try:
            for p in range(base, base + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
        return base
    raise RuntimeError("no free ports")


def free_port() -> int:
    """A free port on 127.0.0.1 (:func:`free_ports`)."""
    return free_ports(1)
