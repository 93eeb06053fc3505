"""``pitch cluster``: N server processes, a PostgreSQL and nginx, started and
stopped together. What it started is written to ``cluster.json`` in the run
directory (ports, pids), for operators and for the tests that kill processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.error import HTTPError, URLError
from urllib.request import urlopen

from pitch.cluster import nginx
from pitch.cluster.postgres import ThrowawayPostgres

if TYPE_CHECKING:
    from pitch.store.ownership import Ownership

HEALTH_TIMEOUT = 3.0
"""Seconds a process has to answer ``/api/health`` (generous: a loaded process is slow)."""
OUT_AFTER = 3
"""Failed health checks in a row (one a second) that take a process out of nginx's ring."""
BACK_AFTER = 2
"""Good health checks in a row that put it back."""
SILENT_AFTER = 1.0
"""Seconds a health check may go unanswered before its process counts as silent."""
ROUND = 0.5
"""Seconds a round of checks waits for answers (a slower one is collected later)."""


def _probe(url: str, timeout: float = 1.0) -> str:
    """``"ok"``; ``"refused"``: it answered, but not 200 (503: it holds no lease);
    ``"silent"``: no answer in time (stopped, hung, or gone)."""
    try:
        with urlopen(url + "/api/health", timeout=timeout) as r:
            return "ok" if r.status == 200 else "refused"
    except HTTPError:
        return "refused"
    except (URLError, OSError, ValueError):
        return "silent"


def _healthy(url: str, timeout: float = 1.0) -> bool:
    return _probe(url, timeout) == "ok"


@dataclass
class Node:
    name: str
    port: int
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    in_ring: bool = True
    """Whether nginx sends it requests (the supervisor's health checks decide)."""
    streak: int = 0
    """Health checks in a row that disagree with :attr:`in_ring`."""
    probe: Future[str] | None = None
    """The health check in flight, and since when (``time.monotonic()``)."""
    probe_since: float = 0.0
    last: str = "ok"
    """The last finished check's answer (see :func:`_probe`)."""
    answered: bool = False
    """Whether this process (since its last start) has ever answered a check."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class ClusterConfig:
    processes: int = 3
    port: int = 8080
    host: str = "127.0.0.1"
    base_port: int = 8101
    db: str | None = None
    run_dir: Path | None = None
    prefix: str = "node"
    bot_workers: int = 1
    lease_seconds: float = 5.0
    ws_ping: float = 5.0
    nginx_workers: int = 1
    restart: bool = False
    kill_hung: bool = True
    """Kill a process that answers nothing once its lease has run out (see
    :meth:`Cluster.check_health`)."""
    conn_per_address: int = 256
    """nginx's limits per client address (:func:`pitch.cluster.nginx.render`): requests
    at once (the processes' ``PITCH_MAX_CONNECTIONS_PER_CLIENT``), and a second, with
    a burst."""
    rate: int = 20
    burst: int = 120
    header_seconds: float = 10.0
    """nginx's header and body timeouts: the processes' ``PITCH_HEADER_SECONDS`` and
    ``PITCH_BODY_SECONDS``."""
    body_seconds: float = 10.0
    serve_args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


class Cluster:
    def __init__(self, cfg: ClusterConfig) -> None:
        self.cfg = cfg
        self.run_dir = cfg.run_dir or Path(tempfile.mkdtemp(prefix="pitch-cluster-"))
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.pg: ThrowawayPostgres | None = None
        self.db_url = cfg.db or ""
        self.nodes = [Node(f"{cfg.prefix}{i + 1}", cfg.base_port + i) for i in range(cfg.processes)]
        self.nginx: subprocess.Popen[bytes] | None = None
        self._owners: Ownership | None = None
        self._leases_failed = False

    @property
    def url(self) -> str:
        return f"http://{self.cfg.host}:{self.cfg.port}"

    def start(self) -> None:
        if not self.db_url:
            self.pg = ThrowawayPostgres()
            self.db_url = self.pg.start()
        conf = self._write_nginx_config()
        # The first process migrates the database; the others then start together.
        first, *rest = self.nodes
        self._spawn(first)
        self._wait_healthy([first])
        for n in rest:
            self._spawn(n)
        self._wait_healthy(rest)
        self.nginx = nginx.start(conf, self.run_dir / "nginx.log")
        deadline = time.monotonic() + 30
        while not _healthy(self.url):
            if self.nginx.poll() is not None or time.monotonic() > deadline:
                err = (self.run_dir / "nginx-error.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"nginx did not start: {err}")
            time.sleep(0.1)
        self.write_state()

    def _write_nginx_config(self) -> Path:
        return nginx.write_config(
            nginx.render(
                listen=f"{self.cfg.host}:{self.cfg.port}",
                backends=[f"127.0.0.1:{n.port}" for n in self.nodes],
                run_dir=self.run_dir,
                workers=self.cfg.nginx_workers,
                ws_ping=self.cfg.ws_ping,
                conn_per_address=self.cfg.conn_per_address,
                rate=self.cfg.rate,
                burst=self.cfg.burst,
                header_seconds=self.cfg.header_seconds,
                body_seconds=self.cfg.body_seconds,
                down=[f"127.0.0.1:{n.port}" for n in self.nodes if not n.in_ring],
            ),
            self.run_dir,
        )

    def check_health(self, pool: ThreadPoolExecutor, say: Any = print) -> None:
        """One round of active health checks: a process that exited leaves nginx's ring
        at once, one that failed :data:`OUT_AFTER` checks in a row (stopped, hung) after
        them; it comes back after :data:`BACK_AFTER` good ones. nginx is reloaded when
        the ring changes (its passive checks are off: a slow process is not a dead one).

        With ``kill_hung``, a process that answered before, has been silent for
        :data:`SILENT_AFTER` s and whose lease has run out (by the database) is killed:
        it has lost its tables to the others already, and while it lives its sockets
        stay open through nginx, so its clients would wait for nginx's read timeout
        before reconnecting. Killed, its sockets close and its clients reconnect at
        once, to the process that adopts its tables (``restart`` starts it again). A
        process that answers, even without a lease (503), is never killed."""
        alive = {n.name: n.proc is not None and n.proc.poll() is None for n in self.nodes}
        for n in self.nodes:
            if alive[n.name] and n.probe is None:
                n.probe = pool.submit(_probe, n.url, HEALTH_TIMEOUT)
                n.probe_since = time.monotonic()
        wait([n.probe for n in self.nodes if n.probe is not None], timeout=ROUND)
        leases = self._leases() if self.cfg.kill_hung else {}
        changed = False
        for n in self.nodes:
            if not alive[n.name]:
                n.probe = None
                changed |= _take_out(n, say)
                continue
            if n.probe is not None and n.probe.done():
                n.last, n.probe = n.probe.result(), None
                ok = n.last == "ok"
                n.answered = n.answered or n.last != "silent"
                n.streak = 0 if ok == n.in_ring else n.streak + 1
                if n.streak >= (BACK_AFTER if ok else OUT_AFTER):
                    n.in_ring, n.streak, changed = ok, 0, True
                    say(f"{n.name} {'back in' if ok else 'out of'} nginx's ring")
            waiting = n.probe is not None and time.monotonic() - n.probe_since >= SILENT_AFTER
            silent = waiting or (n.probe is None and n.last == "silent")
            if silent and n.answered and leases.get(n.name, 1.0) < 0 and n.proc is not None:
                n.proc.kill()  # SIGKILL ends a stopped process too
                _wait(n.proc)
                say(f"{n.name} lost its lease and answers nothing: killed")
                n.probe = None
                changed |= _take_out(n, say)
        if changed and self.nginx is not None and self.nginx.poll() is None:
            self._write_nginx_config()
            self.nginx.send_signal(signal.SIGHUP)  # reload: new workers, the new ring
            self.write_state()

    def _leases(self) -> dict[str, float]:
        """Seconds each instance's lease has left ({} if the database cannot say)."""
        if not self.db_url:
            return {}
        try:
            if self._owners is None:
                from pitch.store.db import Database
                from pitch.store.ownership import Ownership

                self._owners = Ownership(Database(self.db_url, migrate=False), "")
            leases = self._owners.leases_left()
        except Exception as e:  # a database that is down or slow: kill nobody
            if not self._leases_failed:  # once, not every second
                print(f"pitch cluster: cannot read the leases ({e})", file=sys.stderr)
            self._leases_failed = True
            return {}
        self._leases_failed = False
        return leases

    def _spawn(self, n: Node) -> None:
        cfg = self.cfg
        env = {
            **os.environ,
            **cfg.env,
            "PITCH_LEASE_SECONDS": f"{cfg.lease_seconds:g}",
            "PITCH_WS_PING": f"{cfg.ws_ping:g}",
        }
        log = (self.run_dir / f"{n.name}.log").open("ab")
        n.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "pitch", "serve"),
                *("--host", "127.0.0.1", "--port", str(n.port), "--db", self.db_url),
                *("--instance", n.name, "--bot-workers", str(cfg.bot_workers)),
                # nginx is the only client the processes see: believe its
                # X-Forwarded-For, so that per-client limits count real clients.
                *("--forwarded-allow-ips", "127.0.0.1", "--log-level", "warning"),
                *cfg.serve_args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        n.starts += 1
        n.probe, n.last, n.answered = None, "ok", False

    def _wait_healthy(self, nodes: list[Node], timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        for n in nodes:
            while not _healthy(n.url):
                assert n.proc is not None
                if n.proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.run_dir / f"{n.name}.log").read_text(errors="replace")
                    raise RuntimeError(f"{n.name} did not start: {log[-2000:]}")
                time.sleep(0.2)
            n.answered = True

    def state(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "run_dir": str(self.run_dir),
            "throwaway_db": self.pg is not None,
            "nginx_pid": self.nginx.pid if self.nginx else None,
            "postgres_pid": self.pg.pid() if self.pg else None,
            "supervisor_pid": os.getpid(),
            "processes": [
                {
                    "instance": n.name,
                    "port": n.port,
                    "pid": n.proc.pid if n.proc else None,
                    "starts": n.starts,
                    "in_ring": n.in_ring,
                }
                for n in self.nodes
            ],
        }

    def write_state(self) -> None:
        tmp = self.run_dir / "cluster.json.tmp"
        tmp.write_text(json.dumps(self.state(), indent=2))
        tmp.replace(self.run_dir / "cluster.json")

    def watch(self, say: Any = print) -> None:
        """Until interrupted: report processes that exit; with ``restart``, start
        them again (under the same name: they take their lease back, and the tables
        that nobody adopted meanwhile, at once); and check every process's health
        (:meth:`check_health`)."""
        with ThreadPoolExecutor(len(self.nodes), thread_name_prefix="health") as pool:
            tick = time.monotonic()
            while True:
                # A round each second, however long the last one's checks took.
                tick = max(tick + 1.0, time.monotonic())
                time.sleep(max(0.0, tick - time.monotonic()))
                if self.nginx is not None and self.nginx.poll() is not None:
                    raise RuntimeError("nginx exited; see nginx-error.log")
                self.check_health(pool, say)
                for n in self.nodes:
                    if n.proc is not None and n.proc.poll() is not None:
                        say(f"{n.name} exited with status {n.proc.returncode}")
                        n.proc = None
                        if self.cfg.restart:
                            self._spawn(n)
                            say(f"{n.name} started again")
                        self.write_state()

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()  # SIGTERM: nginx's fast shutdown
            _wait(self.nginx)
        for n in self.nodes:
            if n.proc is not None and n.proc.poll() is None:
                n.proc.terminate()
        for n in self.nodes:
            if n.proc is not None:
                _wait(n.proc)
        if self._owners is not None:
            self._owners.db.close()
        if self.pg is not None:
            self.pg.stop()


def _take_out(n: Node, say: Any) -> bool:
    """Take ``n`` out of nginx's ring; whether that changed the ring."""
    if not n.in_ring:
        return False
    n.in_ring, n.streak = False, 0
    say(f"{n.name} out of nginx's ring")
    return True


def _wait(p: subprocess.Popen[bytes]) -> None:
    try:
        p.wait(15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
