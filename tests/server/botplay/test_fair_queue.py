"""The bot pool's queue (``pitch.server.botplay.fairqueue.FairQueue``) on a made-up clock: the
order in which clients' jobs get a worker, with the load injected as job lengths."""

from __future__ import annotations

import heapq
from collections.abc import Callable

from pitch.server.botplay.fairqueue import FairQueue


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Pool:
    """``workers`` simulated workers serving ``q``: a job of ``key`` takes
    ``cost(key)`` seconds; ``served`` is the order jobs got a worker."""

    def __init__(self, workers: int, cost: Callable[[str], float], slack: float = 2.0) -> None:
        self.clock = Clock()
        self.q: FairQueue[str] = FairQueue(self.clock, slack=slack)
        self.free = workers
        self.cost = cost
        self.ends: list[tuple[float, int, str, float]] = []
        self.served: list[str] = []
        self.on_done: Callable[[str], None] = lambda job: None

    def push(self, key: str, job: str) -> None:
        self.q.push([key], job)
        self.dispatch()

    def dispatch(self) -> None:
        while self.free and (turn := self.q.pop()) is not None:
            key, job = turn
            self.free -= 1
            started = self.q.start(key)
            self.served.append(job)
            end = self.clock.now + self.cost(key)
            heapq.heappush(self.ends, (end, len(self.served), key, started))

    def run_until(self, t: float) -> None:
        while self.ends and self.ends[0][0] <= t:
            end, n, key, started = heapq.heappop(self.ends)
            self.clock.now = end
            self.q.finish(key, started)
            self.free += 1
            self.on_done(self.served[n - 1])
            self.dispatch()
        self.clock.now = t


def test_equal_jobs_are_served_round_robin() -> None:
    pool = Pool(1, lambda key: 1.0, slack=1.0)  # the slack: one long search
    for i in range(3):
        for key in "abc":
            pool.q.push([key], f"{key}{i}")
    pool.dispatch()
    pool.run_until(100)
    assert pool.served == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2"]


def test_an_unrelated_address_goes_before_twenty_flooding_addresses() -> None:
    """Twenty addresses keep two jobs of 2 s each waiting (two tables of the costliest
    bot each) on two workers; a twenty-first address's table asks for a quick move now
    and then. Once the flood is under way, each of the unrelated jobs is the next to
    get a worker, whatever the flooders have queued: it waits only for a job already
    running (under 2 s), never a round of 20."""
    flooders = [f"f{i}" for i in range(20)]
    pool = Pool(2, lambda key: 0.01 if key == "u" else 2.0)
    count = {k: 0 for k in flooders}

    def refill(job: str) -> None:  # a flooder's table asks again as soon as it moved
        key = job.split(".")[0]
        if key != "u":
            count[key] += 1
            pool.q.push([key], f"{key}.{count[key]}")

    pool.on_done = refill
    for k in flooders:
        for _ in range(2):
            count[k] += 1
            pool.q.push([k], f"{k}.{count[k]}")
    pool.dispatch()
    t = 21.0  # 20 flooders x 2 s on two workers: each has been served
    for n in range(30):
        t += 2.5  # the unrelated table's bot is due every 2.5 s
        pool.run_until(t)
        pool.push("u", f"u.{n}")
        before = len(pool.served)
        pool.run_until(t + 2.1)  # a running job ends within its 2 s (and u's 0.01 s)
        assert f"u.{n}" in pool.served[before : before + 1], pool.served[before - 3 :]
    served = [j.split(".")[0] for j in pool.served]
    assert all(served.count(k) >= 3 for k in flooders), "a flooder was starved"


def test_an_address_back_after_a_pause_has_saved_up_no_credit() -> None:
    # a ran two searches, then b alone ran twenty. a comes back with a backlog: it is
    # owed no more than the slack (one search) for the time it did not use, then a and
    # b alternate; it does not run eighteen in a row.
    pool = Pool(1, lambda key: 1.0, slack=1.0)
    for i in range(2):
        pool.push("a", f"a{i}")
    pool.run_until(2)
    for i in range(30):
        pool.q.push(["b"], f"b{i}")
    pool.dispatch()
    pool.run_until(22.5)
    assert pool.served[-1] == "b20"
    for i in range(2, 12):
        pool.q.push(["a"], f"a{i}")
    pool.run_until(100)
    later = pool.served[pool.served.index("b20") + 1 :][:10]
    assert later.count("a2") == 1 and 4 <= sum(j.startswith("a") for j in later) <= 6, later


def test_a_job_for_several_clients_waits_in_the_soonest_turn() -> None:
    clock = Clock()
    q: FairQueue[str] = FairQueue(clock)
    q.push(["a"], "a0")
    q.push(["a"], "a1")
    # A table b keeps open that a watches too: it waits in b's turn (nothing waiting).
    assert q.push(["a", "b"], "b0") == "b"
    assert q.pop() == ("b", "b0")


def test_a_cancelled_job_leaves_the_queue_at_once() -> None:
    clock = Clock()
    q: FairQueue[str] = FairQueue(clock)
    q.push(["a"], "a0")
    q.push(["a"], "a1")
    q.push(["b"], "b0")
    assert q.remove("a", "a0") and q.remove("b", "b0")
    assert not q.remove("b", "b0")
    assert len(q) == 1 and q.keys_waiting() == 1 and q.waiting("a") == 1
    assert q.pop() == ("a", "a1")
    assert q.pop() is None and not q


def test_idle_clients_are_forgotten_past_the_bound() -> None:
    clock = Clock()
    q: FairQueue[str] = FairQueue(clock, remember=10)
    for i in range(100):
        q.push([f"k{i}"], "job")
        key, _ = q.pop() or ("", "")
        started = q.start(key)
        clock.now += 1.0
        q.finish(key, started)
    assert len(q._used) <= 10 and len(q._cost) <= 10
    assert list(q.drain()) == []


def test_clients_whose_jobs_are_all_cancelled_are_forgotten_too() -> None:
    clock = Clock()
    q: FairQueue[str] = FairQueue(clock, remember=10)
    for i in range(100):
        q.push([f"k{i}"], "job")
        q.remove(f"k{i}", "job")
    assert len(q._used) <= 11
