"""pimc's payoff and its guarded bid search."""

from __future__ import annotations

import random

import pytest

from pitch.bots import make_bot
from pitch.bots.heuristic import view_action
from pitch.engine import GameState, Rules
from pitch.engine.state import BID
from pitch.fastcore.pimc import hand_value as kernel_hand_value
from tests.support.finished import finished_hand


def hand_value(
    rules: Rules,
    scores: list[int],
    delta: tuple[int, ...],
    pitcher: int,
    side: int,
    bonus: float,
) -> float:
    """The kernel's payoff for a finished hand, from readable arguments."""
    w, res = finished_hand(rules, scores, delta, pitcher)
    return float(kernel_hand_value(w, res, side, bonus))


def test_going_out_bonus_is_scaled_by_the_caller() -> None:
    rules = Rules(partnerships=True, target=7)
    # Side 0 pitched from 5 and made 2 (R6.2: it goes out); side 1 lost 2.
    args = (rules, [5, 0], (2, -2), 0)
    assert hand_value(*args, 0, bonus=0.0) == 4.0
    assert hand_value(*args, 0, bonus=2.0) == 6.0
    assert hand_value(*args, 1, bonus=2.0) == -6.0
    # Far from the target there is no bonus at all.
    assert hand_value(rules, [0, 0], (2, -2), 0, 0, bonus=6.0) == 4.0


def test_bid_falls_back_to_the_heuristic_without_a_clear_gain() -> None:
    # With an unreachable margin no search bid is "clearly better": pimc bids
    # exactly as the heuristic would, at every seat of several auctions.
    rules = Rules(partnerships=True)
    bot = make_bot("pimc:samples=3,time=1,bid_margin=1000,bid_factor=1", rng=random.Random(2))
    checked = 0
    for deal in range(4):
        st = GameState(rules, dealer=deal % 4)
        st.deal_random(random.Random(deal))
        while st.phase == BID:
            v = st.view(st.current_player())
            a = bot.act(v)
            assert a == view_action(v)
            st.apply(a)
            checked += 1
    assert checked >= 16


def test_bid_factor_must_be_positive() -> None:
    with pytest.raises(ValueError, match="bid_factor"):
        make_bot("pimc:bid_factor=0")


@pytest.mark.parametrize(
    ("players", "partnerships", "default", "other"),
    [(2, False, -0.2, 0.2), (3, False, 0.1, 0.2), (4, True, 0.2, -0.2)],
)
def test_bid_margin_defaults_to_the_tables_measured_value(
    players: int, partnerships: bool, default: float, other: float
) -> None:
    # Heads-up and solo-3 tables search bids with margins of -0.2 and 0.1
    # (docs/results/headsup-tuning/, C7 and C6), the others with 0.2: left unset, the
    # bot bids exactly as with its table's value, and that is not the other value's
    # bidding (it differs on some auctions).
    from pitch.bots.pimc import bid_margin

    rules = Rules(players=players, partnerships=partnerships)
    assert bid_margin(rules) == default
    asked = same = differ = 0
    for deal in range(30):
        st = GameState(rules, dealer=deal % players)
        st.deal_random(random.Random(deal))
        while st.phase == BID:
            v = st.view(st.current_player())
            got = [
                make_bot(f"pimc:samples=100,time=10{opt}", rng=random.Random(deal)).act(v)
                for opt in ("", f",bid_margin={default}", f",bid_margin={other}")
            ]
            asked += 1
            same += got[0] == got[1]
            differ += got[0] != got[2]
            st.apply(got[0])
    assert asked > 50 and same == asked and differ >= 1
