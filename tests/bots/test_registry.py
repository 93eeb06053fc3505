from __future__ import annotations

import random

import pytest

from pitch.bots import make_bot, parse_bot_spec
from pitch.bots.heuristic import HeuristicBot
from pitch.bots.registry import ALIASES


@pytest.mark.parametrize("level", ["beginner", "club", "expert", "master"])
def test_levels_make_bots(level: str) -> None:
    bot = make_bot(level, rng=random.Random(1))
    assert bot.level == level or level == "beginner"


def test_alias_options_merge() -> None:
    spec = parse_bot_spec("expert:samples=5")
    assert spec.name == "pimc"
    assert spec.options["samples"] == 5
    assert "time" in spec.options


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="samples"):
        make_bot("pimc:samples=0")
    with pytest.raises(ValueError, match="bad options"):
        make_bot("heuristic:nonsense=1")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


def test_heuristic_registered() -> None:
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert set(ALIASES) >= {"beginner", "club", "expert", "master"}
