"""The supervisor's active health checks decide nginx's ring, and the configuration it
writes (no servers needed: the processes and their answers are stand-ins; the real
ones are in test_cluster.py and test_limits.py)."""

from __future__ import annotations

import inspect
import re
import resource
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pitch.cluster import nginx, supervisor
from pitch.cluster.nginx import render
from pitch.cluster.supervisor import BACK_AFTER, OUT_AFTER, Cluster, ClusterConfig
from pitch.server.api.guard import Guard
from pitch.server.app import MAX_RECORDS_BODY


class FakeProc:
    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code

    def kill(self) -> None:
        self.code = -9

    def wait(self, timeout: float | None = None) -> int | None:
        return self.code


def test_health_checks_take_processes_out_of_the_ring_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = Cluster(ClusterConfig(processes=3, run_dir=tmp_path, base_port=9001))
    procs = [FakeProc() for _ in c.nodes]
    for n, p in zip(c.nodes, procs, strict=True):
        n.proc = p  # type: ignore[assignment]
    answers = {n.url: "ok" for n in c.nodes}
    monkeypatch.setattr(supervisor, "_probe", lambda url, timeout=1.0: answers[url])
    said: list[str] = []
    with ThreadPoolExecutor(3) as pool:

        def rounds(k: int) -> list[bool]:
            for _ in range(k):
                c.check_health(pool, said.append)
            return [n.in_ring for n in c.nodes]

        assert rounds(5) == [True, True, True] and said == []
        # A stopped process (its checks time out) leaves after OUT_AFTER failures in a
        # row; one slow answer in between does not count against a live process.
        answers[c.nodes[1].url] = "silent"
        assert rounds(OUT_AFTER - 1) == [True, True, True]
        answers[c.nodes[1].url] = "ok"
        assert rounds(1) == [True, True, True]
        answers[c.nodes[1].url] = "silent"
        assert rounds(OUT_AFTER) == [True, False, True]
        assert said == ["node2 out of nginx's ring"]
        # It comes back after BACK_AFTER good answers.
        answers[c.nodes[1].url] = "ok"
        assert rounds(BACK_AFTER - 1) == [True, False, True]
        assert rounds(1) == [True, True, True]
        # A process that exited leaves at once.
        procs[2].code = -9
        assert rounds(1) == [True, True, False]
        assert said[-1] == "node3 out of nginx's ring"


def test_a_silent_process_whose_lease_ran_out_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed only when all three hold: it answered since it started, it answers
    nothing now, and the database says its lease ran out."""
    c = Cluster(ClusterConfig(processes=3, run_dir=tmp_path, base_port=9001))
    procs = [FakeProc() for _ in c.nodes]
    for n, p in zip(c.nodes, procs, strict=True):
        n.proc = p  # type: ignore[assignment]
    answers = {n.url: "ok" for n in c.nodes}
    leases = {n.name: 4.0 for n in c.nodes}
    monkeypatch.setattr(supervisor, "_probe", lambda url, timeout=1.0: answers[url])
    monkeypatch.setattr(c, "_leases", lambda: dict(leases))
    said: list[str] = []
    with ThreadPoolExecutor(3) as pool:
        c.check_health(pool, said.append)  # every process answers once
        a, b, d = c.nodes
        # Silent, lease still held: only the ring's slow rule applies (not killed).
        answers[a.url] = "silent"
        c.check_health(pool, said.append)
        assert procs[0].poll() is None
        # Answering without a lease (503) is alive: never killed.
        answers[b.url], leases[b.name] = "refused", -1.0
        for _ in range(OUT_AFTER):
            c.check_health(pool, said.append)
        assert procs[1].poll() is None and not b.in_ring
        # Silent and its lease ran out: killed, and out of the ring at once.
        leases[a.name] = -0.5
        c.check_health(pool, said.append)
        assert procs[0].poll() == -9 and not a.in_ring
        assert "node1 lost its lease and answers nothing: killed" in said
        assert procs[2].poll() is None and d.in_ring
    # A process that never answered since it started (still starting) is spared.
    fresh = Cluster(ClusterConfig(processes=1, run_dir=tmp_path / "f", base_port=9101))
    fp = FakeProc()
    fresh.nodes[0].proc = fp  # type: ignore[assignment]
    answers[fresh.nodes[0].url] = "silent"
    monkeypatch.setattr(fresh, "_leases", lambda: {"node1": -3.0})
    with ThreadPoolExecutor(1) as pool:
        for _ in range(3):
            fresh.check_health(pool, said.append)
    assert fp.code is None
    # Without kill_hung nobody is killed.
    off = Cluster(
        ClusterConfig(processes=1, run_dir=tmp_path / "o", base_port=9201, kill_hung=False)
    )
    op = FakeProc()
    off.nodes[0].proc = op  # type: ignore[assignment]
    off.nodes[0].answered = True
    answers[off.nodes[0].url] = "silent"
    monkeypatch.setattr(off, "_leases", lambda: {"node1": -3.0})
    with ThreadPoolExecutor(1) as pool:
        off.check_health(pool, said.append)
    assert op.code is None


def test_the_ring_lists_every_process_and_marks_the_ones_taken_out_down(tmp_path: Path) -> None:
    backends = ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"]
    text = render(listen="8080", backends=backends, run_dir=tmp_path, down=[backends[1]])
    # The same servers in the same order (the hash ring), nginx's passive checks off.
    assert "server 127.0.0.1:9001 max_fails=0;" in text
    assert "server 127.0.0.1:9002 max_fails=0 down;" in text
    assert "server 127.0.0.1:9003 max_fails=0;" in text


def test_nginx_is_held_to_its_descriptors_and_the_processes_limits(tmp_path: Path) -> None:
    text = render(
        listen="127.0.0.1:8080",
        backends=["127.0.0.1:9001"],
        run_dir=tmp_path,
        nofile=20_000,
        conn_per_address=7,
        rate=3,
        burst=9,
        header_seconds=1.5,
        body_seconds=4,
    )
    # What nginx can really have (it asked for 65,536 where the hard limit was 20,000,
    # failed, and filled 20,000 descriptors with its 32,768 connections).
    assert "worker_rlimit_nofile 20000;" in text
    conns = int(re.findall(r"worker_connections (\d+);", text)[0])
    assert conns <= 18_000
    assert 1 <= nginx.descriptors() <= resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert "limit_conn pitch_conn 7;" in text
    assert "rate=3r/s;" in text and "burst=9 nodelay;" in text
    assert "client_header_timeout 1500ms;" in text and "client_body_timeout 4000ms;" in text
    # The app's body limits, which nginx now answers itself.
    assert inspect.signature(Guard).parameters["max_body"].default == nginx.MAX_BODY
    assert MAX_RECORDS_BODY == nginx.RECORDS_BODY
    nginx.write_config(text, tmp_path)  # nginx -t takes it
