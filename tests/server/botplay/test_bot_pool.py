"""The server's bot worker pool (``pitch.server.botplay.workers.BotPool``) with real worker
processes: a caller that stops waiting does not cost the pool its worker."""

from __future__ import annotations

import asyncio
import contextlib
import time

from pitch.engine import GameState, PlayerView, Rules
from pitch.server.botplay.workers import BotPool
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
        if timeout < 1.0:  # the job outlives its bound: a new worker must come up
            await asyncio.sleep(timeout)
            await _ready(pool)
        start = time.monotonic()
        advice = await pool.run("random", view)
        waited = time.monotonic() - start
        assert (view.legal >> advice.action) & 1
        return before, [w.proc.pid for w in pool._all], waited
    finally:
        pool.close()


def test_a_cancelled_job_leaves_its_worker_to_finish() -> None:
    """The next job waits for the worker to finish the abandoned one (under a second
    here), and gets the same worker: nothing is killed or started again."""
    before, after, waited = asyncio.run(_cancel_then_ask(timeout=10.0))
    assert after == before
    assert waited < 10.0


def test_an_abandoned_job_past_its_bound_ends_its_worker() -> None:
    """Should the abandoned job run past its bound, the worker is ended and replaced
    (the bound is 0.5 s here; the search takes a second)."""
    before, after, _ = asyncio.run(_cancel_then_ask(timeout=0.5))
    assert len(after) == 1 and after != before


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
    """The jobs' names in the order they finished."""
    pool = BotPool(1, 30.0)
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
    a second, on one worker) let another client's job go next, after the one that is
    running, not after all of them (first come, first served would make it last)."""
    steps: list[Step] = [(0, ["a"], SLOW, "a0"), (0, ["a"], SLOW, "a1"), (0, ["a"], SLOW, "a2")]
    steps.append((0.2, ["b"], "random", "b0"))  # a0 is running; a1 and a2 wait
    assert asyncio.run(_finish_order(steps)) == ["a0", "b0", "a1", "a2"]


def test_a_job_for_several_clients_waits_in_the_turn_that_comes_soonest() -> None:
    # b1 runs after a0 (b had not been served) while a1 and a2 wait. Then a job for b's
    # table, which a watches too: a has two jobs waiting, so it waits in b's turn, not
    # behind a's. (a and b have then had a search each: which of a1 and b2 goes first
    # is a tie on worker time.)
    steps: list[Step] = [
        (0, ["a"], SLOW, "a0"),
        (0.2, ["a"], SLOW, "a1"),
        (0, ["a"], SLOW, "a2"),
        (0, ["b"], SLOW, "b1"),
        (1.2, ["a", "b"], "random", "b2"),
    ]
    done = asyncio.run(_finish_order(steps))
    assert done[:2] == ["a0", "b1"] and done[4] == "a2", done


async def _flood_then_unrelated() -> tuple[list[str], dict[str, int]]:
    """Three clients queue two searches each (one worker); an unrelated client asks
    for a quick move once the first two have had a turn, and again as soon as that
    one is answered. The jobs' names in the order they finished, and what still waits
    once the unfinished are cancelled."""
    pool = BotPool(1, 30.0)
    try:
        await _ready(pool)
        view = _view()
        done: list[str] = []

        async def job(key: str, spec: str, name: str) -> None:
            await pool.run(spec, view, keys=[key])
            done.append(name)

        flood = [
            asyncio.create_task(job(key, SLOW, f"{key}.{i}"))
            for key in ("f1", "f2", "f3")
            for i in range(2)
        ]
        await _first(done, "f2.0")
        await job("u", "random", "u0")  # f3 was running: u0 waited for it alone
        await job("u", "random", "u1")  # one flooder's second search runs meanwhile
        for t in flood:
            t.cancel()
        await asyncio.gather(*flood, return_exceptions=True)
        return done, pool.waiting()  # while the worker is still at a cancelled search
    finally:
        pool.close()


async def _first(done: list[str], name: str) -> None:
    deadline = time.monotonic() + 120
    while name not in done:
        assert time.monotonic() < deadline, done
        await asyncio.sleep(0.01)


def test_an_unrelated_client_goes_before_the_flooders_backlog() -> None:
    """Each flooder has had a turn and has a search waiting; the unrelated client's
    second job, asked while one of them runs, is served next, not after all of them
    (serving the client served least recently made it wait for the other two). Its
    first job too waited only for the one running. Cancelled jobs leave the queue at
    once."""
    done, waiting = asyncio.run(_flood_then_unrelated())
    assert done[:3] == ["f1.0", "f2.0", "f3.0"], done
    assert done[3] == "u0", done
    assert done[5] == "u1", done  # after the one second search that was running
    assert waiting == {"jobs": 0, "clients": 0}


def test_a_workers_decision_budget_runs_from_when_it_took_the_job() -> None:
    """``choose`` (what a worker runs) stops the search by the bot's time cap counted
    from ``since``: a job taken a whole budget ago gets the least search, at once."""
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
    unrelated table's quick move is asked while one runs, then a search of its own."""
    pool = BotPool(1, 30.0, quick=1)
    try:
        await _ready(pool)
        view = _view()
        done: list[str] = []

        async def job(key: str, spec: str, name: str) -> None:
            await pool.run(spec, view, keys=[key])
            done.append(name)

        flood = [asyncio.create_task(job("f", SLOW, f"f{i}")) for i in range(2)]
        await asyncio.sleep(0.3)  # f0 is running, f1 waits
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
    """Fair turns alone made a quick move wait for a search that was running (up to 2 s
    for a network bot); the quick worker serves it meanwhile, and only quick jobs."""
    done = asyncio.run(_quick_lane())
    assert done[:2] == ["u0", "h0"], done
    assert done.index("u1") > done.index("f0"), done  # u1 waited for the worker
