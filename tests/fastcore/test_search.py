"""The search-bot hooks: rollouts in the bots' ``Rollout`` shape, and evaluate_actions."""

from __future__ import annotations

import random

import pytest

from pitch.bots.registry import make_bot
from pitch.engine import PLAY, PitchError, Rules
from pitch.engine.fast import random_playout as engine_playout
from pitch.fastcore import COMPILED
from pitch.fastcore.search import evaluate_actions, heuristic_rollout, random_rollout
from tests.fastcore.diffcheck import TABLES
from tests.fastcore.test_api import positions


@pytest.mark.parametrize("rules", TABLES[::2], ids=repr)
def test_evaluate_actions_is_apply_then_rollout(rules: Rules) -> None:
    rng = random.Random(2)
    for s in positions(rules, rng, 25):
        actions = list(s.legal_actions())
        got = evaluate_actions(s, actions, rng)
        assert len(got) == len(actions)
        for a, (delta, pitcher) in zip(actions, got, strict=True):
            assert len(delta) == rules.num_sides
            assert all(-4 <= d <= 4 for d in delta)
            after = s.copy()
            after.apply(a)
            if after.phase in (1, 2) and after.dealer == s.dealer:
                assert heuristic_rollout(after, rng) == (delta, pitcher)
            if s.phase == PLAY:
                assert pitcher == s.pitcher


def test_rollouts_agree_with_the_engine_on_the_last_trick() -> None:
    rng = random.Random(5)
    for s in positions(Rules(players=4), rng, 400):
        if s.phase == PLAY and len(s.tricks) == 5:
            want = engine_playout(s, rng)
            assert random_rollout(s, rng) == (want, s.pitcher)
            assert heuristic_rollout(s, rng) == (want, s.pitcher)


def test_evaluate_actions_refuses_illegal_actions() -> None:
    s = positions(Rules(), random.Random(1), 1)[0]
    bad = next(a for a in range(57) if not s.legal_mask() >> a & 1)
    with pytest.raises(PitchError, match="not legal"):
        evaluate_actions(s, [bad], random.Random(1))


@pytest.mark.skipif(not COMPILED, reason="numba is not installed or is disabled")
@pytest.mark.parametrize(
    "spec", ["pimc:rollout=fast,samples=3", "ismcts:rollout=fast,iterations=20"]
)
def test_search_bots_take_the_compiled_rollouts(spec: str) -> None:
    bot = make_bot(spec, rng=random.Random(1))
    for s in positions(Rules(players=3), random.Random(4), 12):
        a = bot.act(s.view(s.current_player()))
        assert s.legal_mask() >> a & 1


@pytest.mark.skipif(not COMPILED, reason="numba is not installed or is disabled")
@pytest.mark.parametrize("bot", ["ismcts:iterations=25,time=1000"])
def test_fast_rollouts_make_the_same_decisions_as_the_python_heuristic(bot: str) -> None:
    """The kernel heuristic is pitch.bots.policy and draws nothing from the bot's
    generator: with a fixed budget the search decides exactly as with Python rollouts.
    (pimc's ``fast`` search determinizes in the kernel, with its own random stream;
    tests/fastcore/test_pimc_kernel.py checks it values each deal as Python does.)"""
    python = make_bot(f"{bot},rollout=heuristic", rng=random.Random(6))
    fast = make_bot(f"{bot},rollout=fast", rng=random.Random(6))
    for s in positions(Rules(players=4, partnerships=True), random.Random(7), 15):
        view = s.view(s.current_player())
        assert fast.act(view) == python.act(view)
