"""The nginx configuration for a cluster, from ``nginx.conf.template``."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Collection, Sequence
from pathlib import Path

TEMPLATE = Path(__file__).parent / "nginx.conf.template"


def render(
    *,
    listen: str,
    backends: Sequence[str],
    run_dir: Path,
    workers: int = 1,
    ws_ping: float = 5.0,
    read_timeout: float = 10.0,
    down: Collection[str] = (),
) -> str:
    """The configuration text: ``listen`` is nginx's ``[host:]port``, ``backends``
    the processes' ``host:port``, in the same order on every machine (the hash ring
    is built from this list), ``down`` those the supervisor's health checks took out
    of it (their tables go to the next process on the ring; the others stay put)."""
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
