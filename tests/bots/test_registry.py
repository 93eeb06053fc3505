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
    spec = parse_bot_spec("master:samples=5")
    assert spec.name == "pimc"
    assert spec.options["samples"] == 5
    assert "time" in spec.options


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="samples"):
        make_bot("pimc:samples=0")
    with pytest.raises(ValueError, match=r"has no option 'nonsense' \(its options: none\)"):
        make_bot("heuristic:nonsense=1")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:samples=abc", "samples must be a whole number from 1 to 1000000, not 'abc'"),
        ("pimc:bid_factor=1.5", "bid_factor must be a whole number from 1 to 100, not 1.5"),
        ("ismcts:time=fast", "time must be a number above 0 to 3600, not 'fast'"),
        ("pimc:bid_margin=x", "bid_margin must be a number from -1000000 to 1000000"),
        ("ismcts:rollout=gpu", "rollout must be one of heuristic, random, learned, not 'gpu'"),
    ],
)
def test_an_option_of_the_wrong_kind_is_named(spec: str, message: str) -> None:
    # Checked against the bot's declared options, so the error names the option instead
    # of the bot failing later on int('abc').
    with pytest.raises(ValueError, match=f"bot '[a-z]+': option {message}"):
        make_bot(spec)


@pytest.mark.parametrize(
    "spec", ["pimc:bid_bonus=1,time=1", "pimc:tries=6.0", "ismcts:c=1", "ismcts:bid_bonus=0"]
)
def test_options_of_the_declared_kind_are_taken(spec: str) -> None:
    # A whole number is a number, and a whole float is a whole number.
    assert make_bot(spec, rng=random.Random(1)) is not None


def test_heuristic_registered() -> None:
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert set(ALIASES) >= {"beginner", "club", "expert", "master"}


def test_a_frozen_spec_spells_out_every_default() -> None:
    from pitch.bots.registry import frozen_spec

    master = frozen_spec("master")
    assert master.startswith("pimc:") and "win_weight=0.5" in master and "samples=1000" in master
    # It is a spec: it makes the same bot, and freezing it again changes nothing.
    assert frozen_spec(master) == master
    assert make_bot(master).describe() == "pimc"
    # Given options win over the defaults; bots without options, and ext bots, are as given.
    assert "win_weight=0," in frozen_spec("pimc:win_weight=0") + ","
    assert frozen_spec("club") == "heuristic"
    assert frozen_spec("ext:python3 bot.py") == "ext:python3 bot.py"


def test_a_frozen_spec_names_a_per_table_default_for_its_table() -> None:
    from pitch.bots.registry import frozen_spec
    from pitch.engine import Rules

    # master's bid margin is measured per table (-0.2 heads-up, 0.2 partners): a result
    # of a table names the value it played with, and a spec without a table leaves it out.
    assert "bid_margin=-0.2," in frozen_spec("master", Rules(players=2))
    assert "bid_margin=0.2," in frozen_spec("master", Rules(players=4, partnerships=True))
    assert "bid_margin" not in frozen_spec("master")
    assert "bid_margin=0.5," in frozen_spec("pimc:bid_margin=0.5", Rules(players=2))
    assert make_bot(frozen_spec("master", Rules(players=2))).describe() == "pimc"
