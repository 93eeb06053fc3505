"""ismcts: its two engines, its options, and the iterations it reports."""

from __future__ import annotations

import random

import pytest

from pitch import fastcore
from pitch.bots import make_bot
from pitch.bots.ismcts import KERNEL_ITERATIONS, PYTHON_ITERATIONS, IsmctsBot
from pitch.engine import GameState, Rules


def _view_with_a_choice(seed: int) -> tuple[GameState, int]:
    rng = random.Random(seed)
    s = GameState(Rules(partnerships=True))
    s.deal_random(rng)
    while s.legal_mask().bit_count() < 2:
        s.apply(rng.choice(list(s.legal_actions())))
    return s, s.current_player()


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_both_engines_run_the_iterations_asked(engine: str) -> None:
    s, seat = _view_with_a_choice(3)
    bot = make_bot(f"ismcts:iterations=20,time=60,engine={engine}", rng=random.Random(1))
    assert isinstance(bot, IsmctsBot)
    a = bot.act(s.view(seat))
    assert s.legal_mask() >> a & 1
    assert bot.last_iterations == 20


def test_the_kernel_is_the_default_when_compiled() -> None:
    bot = IsmctsBot()
    assert bot.kernel == fastcore.COMPILED
    assert bot.iterations == (KERNEL_ITERATIONS if fastcore.COMPILED else PYTHON_ITERATIONS)
    assert IsmctsBot(engine="python").iterations == PYTHON_ITERATIONS
    assert IsmctsBot(engine="python", iterations=7).iterations == 7


def test_same_seed_same_move_with_the_kernel() -> None:
    s, seat = _view_with_a_choice(8)
    moves = {
        make_bot("ismcts:iterations=200,time=60,engine=kernel", rng=random.Random(4)).act(
            s.view(seat)
        )
        for _ in range(2)
    }
    assert len(moves) == 1


def test_bad_engine_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="engine must be one of auto, kernel, python"):
        make_bot("ismcts:engine=gpu")
