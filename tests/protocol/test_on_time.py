"""A protocol bot is on time: warmed up before the host's first message, and each
decision stopped by the ``act``'s time (issue 48), even beside two CPU-bound processes."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from pitch.bots import Bot, RandomBot, play_game
from pitch.bots.explain import Advice
from pitch.bots.external import ExternalBot
from pitch.bots.heuristic import HeuristicBot
from pitch.bots.protocol import GameEvents, act_message, serve
from pitch.bots.protocol.server import ANSWER_RESERVE
from pitch.engine import GameState, PlayerView, Rules
from tests.protocol.conftest import pitch_bot
from tests.support.timed_bot import Timed
from tests.support.timing import margin

BUDGET = 0.4
"""Seconds a decision, sent in each ``act``."""
LATE = 0.2
"""A decision answered later than the budget plus this is late (the issue's bar)."""


@pytest.fixture
def two_hogs() -> Iterator[None]:
    """Two CPU-bound processes beside the test, on a machine of (here) two cores."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for p in hogs:
            p.kill()
            p.wait()


# ``master`` as shipped (its search ends long before the budget), and with more samples
# than fit in it, so that every decision is stopped by the deadline.
@pytest.mark.parametrize("spec", ["master", "master:samples=1000000"])
@pytest.mark.usefixtures("two_hogs")
def test_pitch_bot_answers_every_decision_within_its_budget(spec: str) -> None:
    ext = ExternalBot(command=pitch_bot(spec, 5), time=BUDGET, grace=5.0, startup=margin(60))
    timed = Timed(ext)
    try:
        ext.warm_up()
        assert ext.ready  # it said so once warmed up, before its first decision
        deals = random.Random(5)
        rules = Rules(players=4, partnerships=True, target=3)
        for _ in range(2):
            seats: list[Bot] = [timed, *(HeuristicBot() for _ in range(3))]
            play_game(rules, seats, deals, max_hands=3)
    finally:
        ext.close()
    assert ext.forfeits == []
    assert len(timed.seconds) >= 10
    late = [round(s, 2) for s in timed.seconds if s > BUDGET + margin(LATE)]
    assert late == [], f"{len(late)} of {len(timed.seconds)} decisions late: {late}"


class _Clocked(RandomBot):
    """Records the clock each decision is given, and when it was warmed up."""

    def __init__(self) -> None:
        super().__init__(rng=random.Random(1))
        self.clocks: list[tuple[float | None, float | None]] = []
        self.warmed: float | None = None

    def warm_up(self) -> None:
        self.warmed = time.perf_counter()

    def decide(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Advice:
        self.clocks.append((since, by))
        return Advice(self.act(view))


def _first_act(seconds: float) -> list[str]:
    state = GameState.new_game(Rules(players=3), random.Random(2))
    state.deal_random(random.Random(3))
    view = state.view(state.current_player())
    events = GameEvents(view).update(view)
    return [json.dumps(m) for m in [*events, act_message(view, seconds)]]


def test_serve_warms_up_answers_hello_then_decides_by_the_acts_time() -> None:
    bot = _Clocked()
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    lines = ['{"type": "hello"}', *_first_act(0.75)]
    serve(bot, io.StringIO("\n".join(lines) + "\n"), out, err)
    assert bot.warmed is not None and bot.warmed >= t0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0] == {"ready": True}
    assert set(answers[1]) == {"action"}
    ((since, by),) = bot.clocks
    assert since is not None and by is not None
    assert bot.warmed <= since <= time.perf_counter()
    assert by == pytest.approx(since + 0.75 - ANSWER_RESERVE)
    assert err.getvalue() == ""


@pytest.mark.parametrize("bad", [None, "1", True, float("nan")])
def test_an_act_without_a_usable_time_leaves_the_bot_its_own_cap(bad: object) -> None:
    bot = _Clocked()
    lines = _first_act(1.0)
    act = json.loads(lines[-1])
    act["time"] = bad
    lines[-1] = json.dumps(act)
    serve(bot, io.StringIO("\n".join(lines) + "\n"), io.StringIO(), io.StringIO())
    ((since, by),) = bot.clocks
    assert since is not None and by is None


def test_a_program_that_does_not_know_hello_still_plays() -> None:
    """The example bot ignores ``hello``: the host waits ``startup`` for a ready that
    does not come, then plays it as before (no forfeit, no stray line)."""
    from tests.protocol.conftest import EXAMPLE_BOT

    ext = ExternalBot(command=[sys.executable, str(EXAMPLE_BOT)], time=5.0, startup=0.5)
    try:
        ext.warm_up()
        assert not ext.ready
        rules = Rules(players=2, target=3)
        play_game(rules, [ext, HeuristicBot()], random.Random(1), max_hands=2)
    finally:
        ext.close()
    assert ext.forfeits == []
    assert ext.decisions > 0
