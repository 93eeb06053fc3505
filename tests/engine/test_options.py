"""Every table option and house rule of :class:`Rules`, and the presets."""

from __future__ import annotations

import pytest

from pitch.engine import DEAL, OVER, PLAY, PRESETS, Rules, RulesError, preset
from tests.engine.test_rules import nine_points_set_back
from tests.support.deals import D4, D4_AUCTION, D4_TRICKS, dealt, play


def test_low_to_holder() -> None:
    """House rule (R5.2): Low goes to the side dealt it, not the side that captured it."""
    s = play(dealt(Rules(low_to="holder"), D4), *D4_AUCTION)
    for t in D4_TRICKS:
        play(s, *t)
    res = s.history[-1].result
    assert res is not None
    assert res.low == 2  # seat 2 held the 2h; seat 1 captured it
    assert res.won == (0, 2, 1, 0) and res.made and s.scores == [0, 2, 1, 0]


def test_low_to_holder_in_partnership() -> None:
    s = play(dealt(Rules(low_to="holder", partnerships=True), D4), *D4_AUCTION)
    for t in D4_TRICKS:
        play(s, *t)
    res = s.history[-1].result
    assert res is not None and res.low == 0 and res.won == (1, 2)


def test_no_steal() -> None:
    """House rule (R3.6): the dealer must outbid or pass."""
    s = play(dealt(Rules(dealer_may_steal=False), D4), "bid 2", "pass", "pass")
    assert s.legal_actions().texts() == ["pass", "bid 3", "bid 4"]
    play(s, "bid 3")
    assert s.pitcher == 0 and s.contract == 3


def test_redeal_on_all_pass() -> None:
    """House rule (R3.5): the dealer may pass too; the hand is thrown in and the next
    dealer deals; nothing is scored."""
    s = dealt(Rules(all_pass="redeal"), D4)
    s.scores = [1, 2, 3, 4]
    play(s, "pass", "pass", "pass")
    assert s.legal_actions().texts() == ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]
    play(s, "pass")
    assert s.phase == DEAL and s.dealer == 1 and s.scores == [1, 2, 3, 4]
    h = s.history[-1]
    assert h.pitcher is None and h.bid is None and h.trump is None and h.tricks == ()
    assert h.result is None and h.scores == (1, 2, 3, 4) and len(h.bids) == 4


def test_redeal_dealer_may_still_bid() -> None:
    s = play(dealt(Rules(all_pass="redeal"), D4), "pass", "pass", "pass", "bid 1")
    assert s.phase == PLAY and s.pitcher == 0 and s.contract == 1


def test_min_bid_two() -> None:
    s = dealt(Rules(min_bid=2), D4)
    assert s.legal_actions().texts() == ["pass", "bid 2", "bid 3", "bid 4"]
    play(s, "pass", "pass", "pass")
    assert s.legal_actions().texts() == ["bid 2", "bid 3", "bid 4"]  # R3.5 unchanged
    s = dealt(Rules(min_bid=2, all_pass="redeal"), D4)
    play(s, "pass", "pass", "pass")
    assert s.legal_actions().texts() == ["pass", "bid 2", "bid 3", "bid 4"]


def test_must_make_bid_to_win() -> None:
    """House rule (R6.2): a pitcher set back onto the target does not go out."""
    s = nine_points_set_back(Rules(must_make_bid_to_win=True))
    assert s.scores[3] == 7 and s.winner is None and s.phase == DEAL
    assert nine_points_set_back(Rules()).phase == OVER


def test_must_make_bid_to_win_when_made() -> None:
    s = dealt(Rules(must_make_bid_to_win=True), D4)
    s.scores = [0, 5, 0, 0]
    play(s, *D4_AUCTION)
    for t in D4_TRICKS:
        play(s, *t)
    assert s.scores[1] == 8 and s.winner == 1 and s.phase == OVER


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("low_to", "dealer", "R5.2"),
        ("all_pass", "pass", "R3.5"),
        ("min_bid", 3, "R3.2"),
        ("min_bid", 0, "R3.2"),
        ("target", 0, "R6.1"),
        ("players", 9, "R1.1"),
    ],
)
def test_bad_options_name_the_rule(field: str, value: object, rule: str) -> None:
    with pytest.raises(RulesError, match=rule.replace(".", r"\.")):
        Rules(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["partnerships", "dealer_may_steal", "must_make_bid_to_win"])
def test_bool_options_must_be_bools(field: str) -> None:
    with pytest.raises(RulesError):
        Rules(**{field: 1})  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["players", "target", "min_bid"])
def test_int_options_must_be_ints(field: str) -> None:
    for bad in (True, 2.0, "4"):
        with pytest.raises(RulesError):
            Rules(**{field: bad})  # type: ignore[arg-type]


def test_rules_round_trip_and_ignore_unknown_keys() -> None:
    for r in PRESETS.values():
        assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict({"players": 3, "future_option": 1}) == Rules(players=3)
    with pytest.raises(RulesError):
        Rules.from_dict([1, 2])


def test_presets() -> None:
    assert preset("standard") == Rules()
    assert preset("partnership") == Rules(partnerships=True)
    assert preset("cutthroat").players == 3
    assert preset("heads-up").players == 2
    assert preset("club") == Rules(partnerships=True, target=11, must_make_bid_to_win=True)
    assert preset("redeal") == Rules(all_pass="redeal", min_bid=2)
    with pytest.raises(RulesError, match="unknown preset"):
        preset("nope")
