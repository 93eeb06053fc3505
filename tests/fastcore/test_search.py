"""pitch.fastcore.search: rollouts from a GameState, and evaluate_actions."""

from __future__ import annotations

import random

import pytest

from pitch.bots.registry import make_bot
from pitch.engine import PLAY, PitchError, Rules
from pitch.fastcore.search import evaluate_actions, heuristic_rollout, random_rollout
from tests.fastcore.diffcheck import TABLES
from tests.fastcore.test_api import positions
from tests.support.playout import checked_playout as engine_playout


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


@pytest.mark.parametrize(
    "spec",
    [
        "pimc:rollout=random,samples=3",
        "pimc:rollout=heuristic,samples=3",
        "ismcts:rollout=random,iterations=20",
        "ismcts:rollout=heuristic,iterations=20",
    ],
)
def test_search_bots_play_legally_with_either_rollout(spec: str) -> None:
    bot = make_bot(spec, rng=random.Random(1))
    for s in positions(Rules(players=3), random.Random(4), 12):
        a = bot.act(s.view(s.current_player()))
        assert s.legal_mask() >> a & 1


@pytest.mark.parametrize("spec", ["pimc:rollout=fast", "ismcts:rollout=fast-random"])
def test_the_old_rollout_names_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="option rollout must be one of heuristic, random"):
        make_bot(spec)
