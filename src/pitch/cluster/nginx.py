"""The nginx configuration for a cluster, from ``nginx.conf.template``."""

from __future__ import annotations

import resource
import shutil
import subprocess
from collections.abc import Collection, Sequence
from pathlib import Path

TEMPLATE = Path(__file__).parent / "nginx.conf.template"

MAX_BODY = 64 * 1024
"""The app's body limit (``pitch.server.api.guard.Guard``): nginx refuses a larger body
itself, before buffering it (tests/cluster/test_health.py holds the two equal)."""
RECORDS_BODY = 2 * 1024 * 1024
"""The same for ``/api/records/verify`` (``pitch.server.app.MAX_RECORDS_BODY``)."""
MAX_DESCRIPTORS = 65_536
"""Descriptors per worker at most, whatever the hard limit: nginx allocates every
connection's structures when a worker starts. Beyond: more workers (``--nginx-workers``)."""


def descriptors() -> int:
    """The descriptors nginx's workers may have: the hard ``RLIMIT_NOFILE`` of this
    process (the supervisor), which nginx inherits and may raise its soft limit to.
    More would take CAP_SYS_RESOURCE, which a container's root lacks: there nginx's
    ``worker_rlimit_nofile 65536`` failed, and a worker with 20,000 descriptors and
    32,768 connections to fill ran out of descriptors instead of connections."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return MAX_DESCRIPTORS if hard == resource.RLIM_INFINITY else min(hard, MAX_DESCRIPTORS)


def worker_connections(nofile: int) -> int:
    """Connections per worker for ``nofile`` descriptors: a tenth held back (and 32
    more) for what is not a connection: the logs, the listening socket, the temp files
    of bodies over 64 KiB (``/api/records/verify`` only)."""
    return max(nofile - nofile // 10 - 32, 16)


def _ms(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"


def render(
    *,
    listen: str,
    backends: Sequence[str],
    run_dir: Path,
    workers: int = 1,
    ws_ping: float = 5.0,
    read_timeout: float = 10.0,
    down: Collection[str] = (),
    nofile: int | None = None,
    conn_per_address: int = 256,
    rate: int = 20,
    burst: int = 120,
    header_seconds: float = 10.0,
    body_seconds: float = 10.0,
) -> str:
    """The configuration text: ``listen`` is nginx's ``[host:]port``, ``backends``
    the processes' ``host:port``, in the same order on every machine (the hash ring
    is built from this list), ``down`` those the supervisor's health checks took out
    of it (their tables go to the next process on the ring; the others stay put).

    Per client address: ``conn_per_address`` requests at once (a WebSocket counts for
    its life; the processes' ``PITCH_MAX_CONNECTIONS_PER_CLIENT``), ``rate`` requests a
    second with a ``burst``. ``header_seconds`` and ``body_seconds``: the processes'
    ``PITCH_HEADER_SECONDS`` and ``PITCH_BODY_SECONDS``. ``nofile``: the descriptors a
    worker may have (default: :func:`descriptors`)."""
    nofile = descriptors() if nofile is None else nofile
    servers = "\n".join(
        f"        server {b} max_fails=0{' down' if b in down else ''};" for b in backends
    )
    values = {
        "listen": listen,
        "servers": servers,
        "run_dir": str(run_dir),
        "workers": str(workers),
        "ws_ping": f"{ws_ping:g}",
        # Two pings missed, and some slack for a busy machine.
        "ws_read_timeout": f"{2 * ws_ping + 2:g}",
        "read_timeout": f"{read_timeout:g}",
        "nofile": str(nofile),
        "worker_connections": str(worker_connections(nofile)),
        "conn_per_address": str(conn_per_address),
        "rate": str(rate),
        "burst": str(burst),
        "header_timeout": _ms(header_seconds),
        "body_timeout": _ms(body_seconds),
        "max_body": str(MAX_BODY),
        "records_body": str(RECORDS_BODY),
    }
    text = TEMPLATE.read_text()
    for k, v in values.items():
        text = text.replace("{{" + k + "}}", v)
    assert "{{" not in text, "a placeholder of the template has no value"
    return text


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )


def write_config(text: str, run_dir: Path) -> Path:
    """Write the configuration and the directories it names; check it with
    ``nginx -t`` (``RuntimeError`` with nginx's words if it is wrong)."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        d = run_dir / "nginx-tmp" / sub
        d.mkdir(parents=True, exist_ok=True)
        d.chmod(0o1777)  # nginx's workers may run as another user (root starts them)
    conf = run_dir / "nginx.conf"
    conf.write_text(text)
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx)")
    r = subprocess.run(
        [
            binary,
            "-t",
            "-q",
            "-p",
            str(run_dir),
            "-e",
            str(run_dir / "nginx-error.log"),
            "-c",
            str(conf),
        ],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise RuntimeError(f"nginx refuses the configuration: {r.stderr.strip()}")
    return conf


def start(conf: Path, log: Path) -> subprocess.Popen[bytes]:
    binary = nginx_binary()
    assert binary is not None
    out = log.open("ab")
    return subprocess.Popen(
        [
            binary,
            "-p",
            str(conf.parent),
            "-e",
            str(conf.parent / "nginx-error.log"),
            "-c",
            str(conf),
        ],
        stdout=out,
        stderr=subprocess.STDOUT,
    )
