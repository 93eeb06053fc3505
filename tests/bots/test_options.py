"""Bot options are typed and bounded in the bots themselves (issue 16): whatever makes a
bot (CLI, arena, bot protocol, server), a non-finite or out-of-range value is refused
at construction with a message naming the option."""

from __future__ import annotations

import inspect
import math

import pytest

from pitch.bots import BOTS, make_bot
from pitch.bots.base import Bot
from pitch.bots.ismcts import IsmctsBot
from pitch.bots.options import NETWORK, Opt, check_options
from pitch.bots.pimc import PimcBot


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: PimcBot(time=math.inf), "option time must be a number above 0 to 3600, not inf"),
        (lambda: PimcBot(time=math.nan), "option time must be"),
        (lambda: PimcBot(time=-1.0), "option time must be"),
        (lambda: PimcBot(samples=0), "option samples must be a whole number from 1 to 1000000"),
        (lambda: PimcBot(samples=10**12), "option samples"),
        (lambda: PimcBot(tries=10**6), "option tries"),
        (lambda: PimcBot(bid_margin=math.nan), "option bid_margin"),
        (lambda: IsmctsBot(c=math.nan), "option c must be a number from 0 to 100, not nan"),
        (lambda: IsmctsBot(c=-1.0), "option c"),
        (lambda: IsmctsBot(iterations=10**12), "option iterations"),
        (lambda: IsmctsBot(time=1e308), "option time"),
        (lambda: IsmctsBot(rollout="gpu"), "option rollout must be one of heuristic, random"),
    ],
)
def test_bots_refuse_bad_numbers_at_construction(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("spec", ["pimc:time=nan", "ismcts:c=inf", "pimc:samples=1e9"])
def test_make_bot_refuses_them_too(spec: str) -> None:
    with pytest.raises(ValueError, match="option"):
        make_bot(spec)


def test_every_declared_option_is_a_parameter_and_back() -> None:
    # OPTIONS and the constructor describe the same options (one list per bot).
    for name, factory in BOTS.items():
        if not (inspect.isclass(factory) and issubclass(factory, Bot)) or not factory.OPTIONS:
            continue
        params = set(inspect.signature(factory).parameters) - {"rng"}
        assert set(factory.OPTIONS) == params, name


def test_network_options_are_a_subset_with_tighter_bounds() -> None:
    for name, allowed in NETWORK.items():
        declared = BOTS[name].OPTIONS  # type: ignore[attr-defined]
        for key, opt in allowed.items():
            assert key in declared, (name, key)
            assert opt.hi is not None and opt.hi <= (declared[key].hi or math.inf)
    assert NETWORK["pimc"]["time"].hi == 2.0 and not NETWORK["pimc"]["time"].none


def test_opt_types() -> None:
    assert Opt(int, 1, 5).check("b", "k", 3.0) == 3
    assert Opt(bool).check("b", "k", 1) is True
    with pytest.raises(ValueError, match="true or false"):
        Opt(bool).check("b", "k", "yes")
    with pytest.raises(ValueError, match="a whole number from 1 to 5"):
        Opt(int, 1, 5).check("b", "k", True)
    with pytest.raises(ValueError, match="has no option 'x'"):
        check_options("b", {"k": Opt(int)}, {"x": 1})
