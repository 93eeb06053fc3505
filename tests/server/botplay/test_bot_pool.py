"""The server's bot worker pool (``pitch.server.botplay.workers.BotPool``) with real worker
processes: a caller that stops waiting does not cost the pool its worker."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time

from pitch.bots.explain import Advice
from pitch.engine import GameState, PlayerView, Rules
from pitch.server.botplay.workers import BotFailure, BotPool
from tests.support.timing import margin

# A search that thinks for about a second (the sample count does not bind).
SLOW = "pimc:samples=1000000,time=1.0"


async def _ready(pool: BotPool) -> int:
    pool.warm()
    deadline = time.monotonic() + margin(120)  # spawn, import, load the compiled kernels
    while pool.ready() < pool.workers + pool.quick:
        assert time.monotonic() < deadline, "no bot worker became ready"
        await asyncio.sleep(0.05)
    return len(pool._all)


def _view() -> PlayerView:
    st = GameState(Rules(players=4, partnerships=True), dealer=0)
    st.deal_random()
    return st.view(st.current_player())


async def _cancel_then_ask(timeout: float) -> tuple[list[int | None], list[int | None], float]:
    pool = BotPool(1, timeout)
    try:
        await _ready(pool)
        before = [w.proc.pid for w in pool._all]
        view = _view()
        task = asyncio.create_task(pool.run(SLOW, view))
        await asyncio.sleep(0.3)  # the worker is thinking
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        start = time.monotonic()
        advice = await pool.run("random", view)
        waited = time.monotonic() - start
        assert (view.legal >> advice.action) & 1
        await asyncio.sleep(timeout)  # past the abandoned job's bound
        return before, [w.proc.pid for w in pool._all], waited
    finally:
        pool.close()


def test_a_cancelled_job_is_dropped_and_its_worker_kept() -> None:
    """The worker drops the abandoned search between two slices: the next job is
    answered at once (it waited for the rest of the search, most of a second, when a
    worker ran one job at a time), by the same worker; nothing is killed or started."""
    before, after, waited = asyncio.run(_cancel_then_ask(timeout=10.0))
    assert after == before
    assert waited < margin(0.5)


def test_a_cancelled_job_is_dropped_within_a_bound_shorter_than_its_search() -> None:
    """The worker says it dropped the job long before the job's bound (0.5 s here; the
    search would take a second), so it is not ended as one that dawdles."""
    before, after, _ = asyncio.run(_cancel_then_ask(timeout=0.5))
    assert after == before


async def _one_worker_stopped() -> tuple[list[str], bool]:
    """Two workers; one stops answering (SIGSTOP). Jobs from four clients."""
    pool = BotPool(2, 1.0)
    try:
        await _ready(pool)
        view = _view()
        victim = pool._all[0]
        os.kill(victim.proc.pid, signal.SIGSTOP)
        jobs = [pool.run(SLOW_ISH, view, keys=[f"c{i}"]) for i in range(4)]
        results = await asyncio.gather(*jobs, return_exceptions=True)
        out = ["failed" if isinstance(r, BotFailure) else "ok" for r in results]
        assert all(isinstance(r, BotFailure | Advice) for r in results), results
        await _ready(pool)
        return out, victim not in pool._all and not victim.proc.is_alive()
    finally:
        pool.close()


SLOW_ISH = "pimc:samples=1000000,time=0.3"


def test_a_worker_that_stops_answering_costs_only_its_own_jobs() -> None:
    """The jobs the stopped worker held fail at their bound (the table then gets the
    heuristic's move) and it is ended and replaced; the other worker's jobs, served in
    slices beside them, are answered."""
    out, replaced = asyncio.run(_one_worker_stopped())
    assert sorted(out) == ["failed", "failed", "ok", "ok"], out
    assert replaced


def test_workers_are_sent_the_last_finished_hand_only() -> None:
    """A worker gets the view without the finished hands before the last, so a move
    costs the same in the hundredth hand as in the first; every bot the server runs
    chooses the same from it as from the whole view (same seed), at every decision of
    a game of many hands."""
    import random

    from pitch.bots.options import NETWORK
    from pitch.server.botplay.workers import choose, for_worker

    rng = random.Random(7)
    st = GameState(Rules(players=3, target=999), dealer=0)
    specs = [f"{name}:samples=20" if name == "pimc" else name for name in NETWORK]
    specs = [s if s != "ismcts" else "ismcts:iterations=200" for s in specs]
    checked = 0
    while len(st.history) < 40:
        if st.current_player() < 0:
            st.deal_random(rng)
            continue
        view = st.view(st.current_player())
        lean = for_worker(view)
        assert lean.history == view.history[-1:]
        if len(view.history) >= 30:  # decisions late in a long game, between hands too
            for spec in specs:
                seed = rng.getrandbits(64)
                assert choose(spec, lean, seed) == choose(spec, view, seed), spec
            checked += 1
        st.apply(rng.choice(list(st.legal_actions())))
    assert checked > 50


# One worker; each step is (seconds to wait first, the job's clients, spec, name).
Step = tuple[float, list[str], str, str]


async def _finish_order(steps: list[Step]) -> list[str]:
    """The jobs' names in the order they finished, with room for one job at a time (so
    that the others queue: the turns by client are for what does not fit in the
    workers)."""
    pool = BotPool(1, 30.0, per_worker=1)
    try:
        await _ready(pool)
        view = _view()
        done: list[str] = []

        async def job(keys: list[str], spec: str, name: str) -> None:
            await pool.run(spec, view, keys=keys)
            done.append(name)

        jobs = []
        for wait, keys, spec, name in steps:
            await asyncio.sleep(wait)
            jobs.append(asyncio.create_task(job(keys, spec, name)))
        await asyncio.gather(*jobs)
        return done
    finally:
        pool.close()


def test_a_client_with_many_long_jobs_does_not_hold_up_the_others() -> None:
    """Waiting jobs take turns by client: one client's queued searches (three of about
    a second, room for one) let another client's job go next, after the one that is
    running, not after all of them (first come, first served would make it last)."""
    steps: list[Step] = [(0, ["a"], SLOW, "a0"), (0, ["a"], SLOW, "a1"), (0, ["a"], SLOW, "a2")]
    steps.append((0.2, ["b"], "random", "b0"))  # a0 is running; a1 and a2 wait
    assert asyncio.run(_finish_order(steps)) == ["a0", "b0", "a1", "a2"]


def test_a_job_for_several_clients_waits_in_the_turn_that_comes_soonest() -> None:
    # a0 runs; a1, a2 and b1 wait. Then a job for b's table, which a watches too: a
    # has two jobs waiting, so it waits in b's turn, not behind a's: it goes once b1
    # (b had not been served) is done, before a1 and a2. (A queued search's budget runs
    # from when it was asked: a1 and a2, asked a second before, then answer at once.)
    steps: list[Step] = [
        (0, ["a"], SLOW, "a0"),
        (0.2, ["a"], SLOW, "a1"),
        (0, ["a"], SLOW, "a2"),
        (0, ["b"], SLOW, "b1"),
        (0.2, ["a", "b"], "random", "b2"),
    ]
    done = asyncio.run(_finish_order(steps))
    assert done == ["a0", "b1", "b2", "a1", "a2"], done


async def _flood_then_unrelated() -> tuple[dict[str, float], dict[str, int]]:
    """Three clients have two searches of a second each in the one worker; an unrelated
    client then asks a quick move, and a search of a second. How long each of its two
    took, and what still waits once the flood is cancelled."""
    pool = BotPool(1, 30.0)
    try:
        await _ready(pool)
        view = _view()
        took: dict[str, float] = {}

        async def job(key: str, spec: str, name: str) -> None:
            start = time.monotonic()
            await pool.run(spec, view, keys=[key])
            took[name] = time.monotonic() - start

        flood = [
            asyncio.create_task(job(key, SLOW, f"{key}.{i}"))
            for key in ("f1", "f2", "f3")
            for i in range(2)
        ]
        await asyncio.sleep(0.3)  # the flood's searches are under way
        await job("u", "random", "u0")
        await job("u", SLOW, "u1")
        for t in flood:
            t.cancel()
        await asyncio.gather(*flood, return_exceptions=True)
        return took, pool.waiting()
    finally:
        pool.close()


def test_an_unrelated_client_is_answered_on_time_beside_the_flood() -> None:
    """The worker serves the flood's six searches and the unrelated client's jobs in
    slices: its quick move is answered at once and its search of a second in a second,
    not after the searches running (when a worker ran one job at a time, after up to a
    second; with every worker at a 2 s search, up to 2 s)."""
    took, waiting = asyncio.run(_flood_then_unrelated())
    assert took["u0"] < margin(0.3), took
    assert took["u1"] < 1.0 + margin(0.3), took
    assert waiting == {"jobs": 0, "clients": 0}


def test_a_workers_decision_budget_runs_from_since() -> None:
    """``choose`` (what a worker runs, sliced) stops the search by the bot's time cap
    counted from ``since`` (when the table asked): a job asked a whole budget ago gets
    the least search, at once."""
    from pitch.server.botplay.workers import choose

    view = _view()
    choose(SLOW, view, 1, advise=True, since=time.perf_counter() - 10)  # loaded
    t0 = time.perf_counter()
    advice = choose(SLOW, view, 1, advise=True, since=t0 - 1.0)
    assert time.perf_counter() - t0 < margin(0.5)
    assert view.legal >> advice.action & 1
    assert advice.evidence is not None and 1 <= advice.evidence.deals < 1000


def test_which_jobs_are_quick() -> None:
    from pitch.server.botplay.workers import quick

    assert quick("heuristic") and quick("club") and quick("random")
    assert quick("ismcts:time=0.2") and quick("pimc:time=0.25,samples=50")
    assert not quick("master") and not quick("pimc") and not quick("ismcts:time=2")
    # A hint (the same spec, with figures) is judged by its bot like a move.
    assert not quick("ext:python3 bot.py") and not quick("nonsense:")


async def _quick_lane() -> list[str]:
    """One worker and one quick worker: a flooder's searches keep the worker busy; an
    unrelated table's quick move is asked while they run, then a search of its own."""
    pool = BotPool(1, 30.0, quick=1)
    try:
        await _ready(pool)
        view = _view()
        done: list[str] = []

        async def job(key: str, spec: str, name: str) -> None:
            await pool.run(spec, view, keys=[key])
            done.append(name)

        flood = [asyncio.create_task(job("f", SLOW, f"f{i}")) for i in range(2)]
        await asyncio.sleep(0.3)  # f0 and f1 are running
        await job("u", "heuristic", "u0")  # on the quick worker, at once
        # A heuristic hint too (the web tests' hints waited over 15 s behind searches).
        await pool.run("heuristic", view, advise=True, keys=["h"])
        done.append("h0")
        slow = asyncio.create_task(job("u", SLOW, "u1"))  # a search: not a quick job
        await asyncio.gather(*flood, slow)
        return done
    finally:
        pool.close()


def test_a_quick_move_does_not_wait_for_the_searches_running() -> None:
    """The quick worker serves a quick move with no search beside it, and only quick
    jobs: a search of the same client's shares the other worker with the flood's."""
    done = asyncio.run(_quick_lane())
    assert done[:2] == ["u0", "h0"], done
    assert done.index("u1") > done.index("f0"), done  # asked later, it ends later
