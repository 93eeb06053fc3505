"""The table of options (pitch.engine.rules.OPTIONS) is the one description of them:
Rules checks its fields by it, and its text forms (the CLI's --rule) parse by it."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pitch.engine import Rules, RulesError
from pitch.engine.rules import OPTION, OPTIONS, Option, check_options, option, parse_option


def test_the_table_describes_every_field_of_rules_with_its_default() -> None:
    assert sorted(o.key for o in OPTIONS) == sorted(f.name for f in fields(Rules))
    for opt in OPTIONS:
        assert getattr(Rules(), opt.key) == opt.default, opt.key
        if opt.choices:
            assert opt.choices[0] == opt.default, opt.key
        assert opt.rule.startswith("R") and opt.label and opt.help


@pytest.mark.parametrize("opt", OPTIONS, ids=lambda o: o.key)
def test_every_value_the_table_allows_makes_rules_and_round_trips(opt: Option) -> None:
    for v in opt.choices or (opt.low, opt.low + 1, opt.most):
        r = Rules(**{opt.key: v})  # type: ignore[arg-type]
        assert getattr(r, opt.key) == v
        assert opt.from_int(opt.to_int(v)) == v


@pytest.mark.parametrize(
    ("key", "bad", "says"),
    [
        ("players", "4", "R1.1: players must be a whole number, not '4'."),
        ("players", 1, "R1.1: Pitch is played by 2 to 7 players, not 1."),
        ("target", 2.5, "R6.1: target must be a whole number, not 2.5."),
        ("target", -3, "R6.1: the target must be a positive number, not -3."),
        ("partnerships", "yes", "R1.2: partnerships must be true or false, not 'yes'."),
        ("min_bid", True, "R3.2: min_bid must be a whole number, not True."),
        ("min_bid", 4, "R3.2: min_bid must be 1 or 2, not 4."),
        ("low_to", 1, "R5.2: low_to must be 'captor' or 'holder', not 1."),
        ("dealer_may_steal", None, "R3.6: dealer_may_steal must be true or false, not None."),
    ],
)
def test_a_bad_value_is_refused_naming_the_rule(key: str, bad: object, says: str) -> None:
    with pytest.raises(RulesError) as e:
        Rules(**{key: bad})  # type: ignore[arg-type]
    assert str(e.value) == says
    with pytest.raises(RulesError) as e2:
        check_options({key: bad})
    assert str(e2.value) == says


def test_an_unknown_key_is_refused_with_the_keys() -> None:
    with pytest.raises(
        RulesError, match=r"unknown table option 'colour'; choose one of: players, "
    ):
        option("colour")
    with pytest.raises(RulesError, match="unknown table option"):
        check_options({"players": 4, "colour": "red"})


def test_a_request_is_held_to_a_bounded_target() -> None:
    check_options({"target": OPTION["target"].most})
    with pytest.raises(RulesError, match=r"R6\.1: target may be at most 999 here, not 1000\."):
        check_options({"target": 1000})
    assert Rules(target=1000).target == 1000  # the rules themselves set no bound


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("players=5", ("players", 5)),
        ("dealer_may_steal=off", ("dealer_may_steal", False)),
        ("must_make_bid_to_win=true", ("must_make_bid_to_win", True)),
        ("low_to=holder", ("low_to", "holder")),
        ("min_bid=2", ("min_bid", 2)),
    ],
)
def test_parse_option(text: str, want: tuple[str, object]) -> None:
    key, value = text.split("=")
    assert parse_option(key, value) == want


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("players=many", "R1.1: players must be a whole number, not 'many'."),
        ("players=8", "R1.1: Pitch is played by 2 to 7 players, not 8."),
        ("low_to=dealer", "R5.2: low_to must be 'captor' or 'holder', not 'dealer'."),
        ("partnerships=maybe", "R1.2: partnerships must be true or false, not 'maybe'."),
    ],
)
def test_parse_option_refuses_naming_the_rule(text: str, says: str) -> None:
    key, value = text.split("=")
    with pytest.raises(RulesError) as e:
        parse_option(key, value)
    assert str(e.value) == says
