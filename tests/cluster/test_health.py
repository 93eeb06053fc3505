"""The supervisor's active health checks decide nginx's ring (no servers needed: the
processes and their answers are stand-ins; the real ones are in test_cluster.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pitch.cluster import supervisor
from pitch.cluster.nginx import render
from pitch.cluster.supervisor import BACK_AFTER, OUT_AFTER, Cluster, ClusterConfig


class FakeProc:
    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


def test_health_checks_take_processes_out_of_the_ring_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = Cluster(ClusterConfig(processes=3, run_dir=tmp_path, base_port=9001))
    procs = [FakeProc() for _ in c.nodes]
    for n, p in zip(c.nodes, procs, strict=True):
        n.proc = p  # type: ignore[assignment]
    answers = {n.url: True for n in c.nodes}
    monkeypatch.setattr(supervisor, "_healthy", lambda url, timeout=1.0: answers[url])
    said: list[str] = []
    with ThreadPoolExecutor(3) as pool:

        def rounds(k: int) -> list[bool]:
            for _ in range(k):
                c.check_health(pool, said.append)
            return [n.in_ring for n in c.nodes]

        assert rounds(5) == [True, True, True] and said == []
        # A stopped process (its checks time out) leaves after OUT_AFTER failures in a
        # row; one slow answer in between does not count against a live process.
        answers[c.nodes[1].url] = False
        assert rounds(OUT_AFTER - 1) == [True, True, True]
        answers[c.nodes[1].url] = True
        assert rounds(1) == [True, True, True]
        answers[c.nodes[1].url] = False
        assert rounds(OUT_AFTER) == [True, False, True]
        assert said == ["node2 out of nginx's ring"]
        # It comes back after BACK_AFTER good answers.
        answers[c.nodes[1].url] = True
        assert rounds(BACK_AFTER - 1) == [True, False, True]
        assert rounds(1) == [True, True, True]
        # A process that exited leaves at once.
        procs[2].code = -9
        assert rounds(1) == [True, True, False]
        assert said[-1] == "node3 out of nginx's ring"


def test_the_ring_lists_every_process_and_marks_the_ones_taken_out_down(tmp_path: Path) -> None:
    backends = ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"]
    text = render(listen="8080", backends=backends, run_dir=tmp_path, down=[backends[1]])
    # The same servers in the same order (the hash ring), nginx's passive checks off.
    assert "server 127.0.0.1:9001 max_fails=0;" in text
    assert "server 127.0.0.1:9002 max_fails=0 down;" in text
    assert "server 127.0.0.1:9003 max_fails=0;" in text
