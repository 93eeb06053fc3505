"""A worker's decisions served in slices (``pitch.server.botplay.slices.Slices``), with
made-up searches on a made-up clock: which decision runs its next batch, and what a
decision that ends, fails or is dropped sends back; then real searches, sliced."""

from __future__ import annotations

import random
import time

from pitch.bots.explain import Advice
from pitch.engine import GameState, Rules
from pitch.fastcore.search import Sliced
from pitch.server.botplay.slices import Slices
from pitch.server.botplay.workers import choose, sliced_choice
from tests.support.timing import margin


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _search(
    name: str, ran: list[str], batches: int, deadline: float | None, clock: Clock | None = None
) -> Sliced[Advice]:
    """A search of ``batches`` batches (each noted in ``ran``), stopping once resumed at
    or past ``deadline`` on ``clock``, as the real ones do."""
    for _ in range(batches):
        ran.append(name)
        yield deadline
        if deadline is not None and clock is not None and clock() >= deadline:
            break
    return Advice(len(name))


def _run(s: Slices, steps: int) -> list[tuple[int, tuple[str, object]]]:
    out = []
    for _ in range(steps):
        if not len(s):
            break
        done = s.step()
        if done is not None:
            out.append(done)
    return out


def test_clients_take_turns_then_their_decisions() -> None:
    """Client a's three searches get one batch between two of b's single one: b has
    as much of the worker as a, whatever a asks for (a newcomer goes first)."""
    s = Slices(Clock())
    ran: list[str] = []
    for job, name in enumerate(("a1", "a2", "a3")):
        s.add(job, "a", _search(name, ran, 10, None))
    s.add(9, "b", _search("b", ran, 10, None))
    _run(s, 12)
    assert ran == ["b", "a1", "b", "a2", "b", "a3", "b", "a1", "b", "a2", "b", "a3"]


def test_a_decision_past_its_deadline_answers_first() -> None:
    clock = Clock()
    s = Slices(clock)
    ran: list[str] = []
    s.add(1, "a", _search("a", ran, 1000, 100.0, clock))
    s.add(2, "b", _search("late", ran, 1000, 5.0, clock))
    s.add(3, "c", _search("cc", ran, 1000, 100.0, clock))
    _run(s, 3)  # each has said its deadline
    clock.now = 6.0
    done = s.step()
    assert done == (2, ("ok", Advice(4)))  # resumed past its deadline, it ended
    assert len(s) == 2


def test_an_ended_a_failed_and_a_dropped_decision() -> None:
    s = Slices(Clock())
    ran: list[str] = []
    closed: list[bool] = []

    def failing() -> Sliced[Advice]:
        yield None
        raise ValueError("no")

    def dropped() -> Sliced[Advice]:
        try:
            while True:
                yield None
        finally:
            closed.append(True)

    s.add(3, "c", dropped())
    assert s.step() is None  # under way
    s.add(1, "a", _search("abc", ran, 1, None))
    s.add(2, "b", failing())
    assert s.drop(3) and not s.drop(3) and closed == [True]
    out = _run(s, 10)
    assert sorted(out, key=lambda x: x[0]) == [
        (1, ("ok", Advice(3))),
        (2, ("error", "ValueError: no")),
    ]
    assert len(s) == 0


def test_sliced_searches_stop_at_their_deadlines_however_many_share_the_worker() -> None:
    """Six real searches of half a second, asked at once and served in turns by one
    process: each answers by its own deadline (a slice late at most, give or take the
    machine's load), with the search it had time for."""
    st = GameState(Rules(players=4, partnerships=True), dealer=0)
    st.deal_random(random.Random(5))
    view = st.view(st.current_player())
    choose("pimc:time=0.1", view, 1)  # the kernels loaded
    s = Slices()
    since = time.perf_counter()
    specs = ["pimc:time=0.5,samples=5000", "ismcts:time=0.5"] * 3
    for job, spec in enumerate(specs):
        s.add(job, f"client{job % 3}", sliced_choice(spec, view, job, True, since))
    ended: dict[int, float] = {}
    while len(s):
        done = s.step()
        if done is not None:
            job, (tag, advice) = done
            assert tag == "ok" and isinstance(advice, Advice), done
            assert view.legal >> advice.action & 1
            ended[job] = time.perf_counter() - since
    assert sorted(ended) == list(range(6))
    assert max(ended.values()) < 0.5 + margin(0.25), ended
