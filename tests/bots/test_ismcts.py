"""ismcts: its options, and the iterations it reports."""

from __future__ import annotations

import random

import pytest

from pitch.bots import make_bot
from pitch.bots.ismcts import ITERATIONS, IsmctsBot
from pitch.engine import GameState, Rules
from pitch.fastcore import layout


def _view_with_a_choice(seed: int) -> tuple[GameState, int]:
    rng = random.Random(seed)
    s = GameState(Rules(partnerships=True))
    s.deal_random(rng)
    while s.legal_mask().bit_count() < 2:
        s.apply(rng.choice(list(s.legal_actions())))
    return s, s.current_player()


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_it_runs_the_iterations_asked(rollout: str) -> None:
    s, seat = _view_with_a_choice(3)
    bot = make_bot(f"ismcts:iterations=20,time=60,rollout={rollout}", rng=random.Random(1))
    assert isinstance(bot, IsmctsBot)
    a = bot.act(s.view(seat))
    assert s.legal_mask() >> a & 1
    assert bot.last_iterations == 20


def test_defaults() -> None:
    bot = IsmctsBot()
    assert bot.iterations == ITERATIONS
    assert bot.policy == layout.HEURISTIC
    assert IsmctsBot(iterations=7, rollout="random").policy == layout.RANDOM


def test_same_seed_same_move() -> None:
    s, seat = _view_with_a_choice(8)
    moves = {
        make_bot("ismcts:iterations=200,time=60", rng=random.Random(4)).act(s.view(seat))
        for _ in range(2)
    }
    assert len(moves) == 1


def test_the_retired_engine_option_is_refused_saying_why() -> None:
    with pytest.raises(ValueError, match=r"no option 'engine'.*removed: every search runs in"):
        make_bot("ismcts:engine=kernel")
