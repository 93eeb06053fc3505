"""Search bots stop by a deadline (issue 48), and only a deadline that binds changes
what they decide."""

from __future__ import annotations

import random
import time

import pytest

from pitch.bots import make_bot
from pitch.bots.base import deadline
from pitch.bots.heuristic import HeuristicBot
from pitch.engine import GameState, PlayerView, Rules
from pitch.fastcore.search import next_batch
from tests.support.timing import margin

# What each bot decided at those positions, with those seeds, before the deadline
# (issue 48) was added: recorded from `7e3a7ed` with a budget it never reached (`master`
# then finished its deals with the heuristic: `rollout=heuristic` since its learned
# card model, which plays another card at one of these positions).
BEFORE = {
    "master:time=100,rollout=heuristic": [
        54, 50, 54, 43, 54, 5, 20, 52, 11, 22, 53, 54, 26, 18, 54, 6, 42, 52, 13, 37,
    ],
    "expert:iterations=300,time=100": [
        54, 50, 54, 43, 53, 5, 20, 52, 11, 33, 53, 54, 19, 18, 52, 35, 46, 52, 13, 37,
    ],
}  # fmt: skip


def _seeded() -> list[tuple[int, PlayerView]]:
    """The positions with the seed each decision was made with (game * 1000 + step)."""
    out = []
    for g in range(8):
        rules = Rules(players=4, partnerships=bool(g % 2))
        state = GameState.new_game(rules, random.Random(g))
        deals = random.Random(100 + g)
        k = 0
        while not state.is_terminal() and k < 30:
            if state.is_chance_node():
                state.deal_random(deals)
                continue
            view = state.view(state.current_player())
            if k % 7 == 3 and view.legal.bit_count() > 1:
                out.append((g * 1000 + k, view))
            state.apply(HeuristicBot().act(view))
            k += 1
    return out


@pytest.mark.parametrize("spec", sorted(BEFORE))
def test_with_time_to_spare_the_decisions_are_those_made_before(spec: str) -> None:
    """Same seed, a budget that does not bind: the same decision as before the change,
    by ``act`` and by ``decide`` with a host's deadline far away."""
    positions = _seeded()
    assert len(positions) == len(BEFORE[spec])
    acted = [make_bot(spec, rng=random.Random(seed)).act(v) for seed, v in positions]
    assert acted == BEFORE[spec]
    far = time.perf_counter() + 3600
    decided = [
        make_bot(spec, rng=random.Random(seed)).decide(v, by=far).action for seed, v in positions
    ]
    assert decided == BEFORE[spec]


@pytest.mark.parametrize("spec", [*sorted(BEFORE), "master:time=100"])
def test_sliced_the_decisions_are_the_same(spec: str) -> None:
    """``sliced`` (what the server's workers run, a batch at a time, other decisions'
    batches between) is ``decide``: the same decisions as before (as ``act`` for today's
    `master`), however long the host takes between two slices when the budget does not
    bind; and a search stops at batch boundaries (it yields) while a bot that does not
    search does not."""
    positions = _seeded()
    want = BEFORE.get(spec) or [make_bot(spec, rng=random.Random(s)).act(v) for s, v in positions]
    decided = []
    for seed, v in positions:
        steps = make_bot(spec, rng=random.Random(seed)).sliced(v)
        stops = 0
        while True:
            try:
                next(steps)
            except StopIteration as end:
                decided.append(end.value.action)
                break
            stops += 1
        assert stops >= 1
    assert decided == want
    assert list(HeuristicBot().sliced(positions[0][1])) == []


@pytest.mark.parametrize("spec", ["pimc:samples=1000000", "ismcts", "master", "expert"])
def test_a_deadline_already_past_gives_a_legal_move_at_once(spec: str) -> None:
    """The search stops at the first look at the clock: a legal move from at least one
    sample (or iteration), not the million asked for."""
    bot = make_bot(spec, rng=random.Random(1))
    bot.warm_up()  # loaded before the clock runs
    for _, view in _seeded()[:6]:
        t0 = time.perf_counter()
        advice = bot.decide(view, by=t0 - 1.0)
        took = time.perf_counter() - t0
        assert view.legal >> advice.action & 1
        assert took < margin(0.5)
        if advice.evidence is not None:
            assert advice.evidence.deals >= 1


def test_the_deadline_is_the_earlier_of_the_cap_and_the_hosts() -> None:
    assert deadline(None, None, None) is None
    assert deadline(1.0, 10.0, None) == 11.0
    assert deadline(1.0, 10.0, 10.5) == 10.5
    assert deadline(1.0, 10.0, 12.0) == 11.0
    assert deadline(None, 10.0, 12.0) == 12.0
    now = time.perf_counter()
    got = deadline(2.0, None, None)
    assert got is not None and now + 2.0 <= got <= time.perf_counter() + 2.0


def test_batches_fit_the_time_left_at_the_measured_speed() -> None:
    # 100 samples took 1 ms: twice as many, as the cap allows...
    assert next_batch(100, 0.001, 256, deadline=10.0, now=0.0) == 200
    assert next_batch(200, 0.002, 256, deadline=10.0, now=0.0) == 256
    # ... but no more than fit in the slice (0.01 s), or in half the time left.
    assert next_batch(64, 0.0625, 256, deadline=10.0, now=0.0) == 10
    assert next_batch(64, 1 / 128, 256, deadline=1 / 128, now=0.0) == 32
    # A slow sample: one at a time, never none.
    assert next_batch(4, 4.0, 256, deadline=10.0, now=0.0) == 1
    assert next_batch(4, 0.0, 256, deadline=10.0, now=0.0) == 8
