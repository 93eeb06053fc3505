"""The kernel's game end (pitch.fastcore.rules.goes_out, the search bots' going-out
bonus) says "out" exactly when the engine ends the game (R6.2 and its house rules)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pitch.engine import OVER, Rules, parse_action
from pitch.fastcore import layout as L
from pitch.fastcore import pack
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.loops import finish
from pitch.fastcore.packing import unpack
from pitch.fastcore.rules import goes_out
from tests.fastcore.diffcheck import TABLES
from tests.fastcore.test_api import positions
from tests.support.deals import dealt

GAME_END_TABLES = [
    *TABLES,
    Rules(partnerships=True, target=11, must_make_bid_to_win=True),
    Rules(players=3, target=5, must_make_bid_to_win=True),
    Rules(players=2, smudge=True),
    Rules(players=3, smudge=True, target=11),
    Rules(partnerships=True, smudge=True, must_make_bid_to_win=True),
    Rules(players=5, smudge=True, low_to="holder", all_pass="redeal"),
]


def check_against_the_engine(w: Any, seed: int) -> int:
    """Finish the hand in ``w`` with the kernel, replay it in the engine from the same
    scores; both must agree on who (if anyone) goes out. Returns that side or -1."""
    res = new_array([0] * L.R_SIZE)
    finish(w, L.HEURISTIC, seed64(seed), res, 0, new_array([]))
    out = int(goes_out(w, res, 0))
    state = unpack(w)  # replays this hand's deal, bids and cards through the engine
    if out >= 0:
        assert state.phase == OVER and state.winner == out, (out, state.winner)
    else:
        assert state.phase != OVER, ("engine ended the game", state.winner)
    return out


@pytest.mark.parametrize("rules", GAME_END_TABLES, ids=repr)
def test_goes_out_is_the_engines_game_end(rules: Rules) -> None:
    rng = random.Random(rules.players * 31 + rules.target)
    outs = 0
    for i, s in enumerate(positions(rules, rng, 80)):
        w = pack(s)
        for side in range(s.num_sides):  # scores near the target, some negative
            w[L.SCORES + side] = rng.randrange(rules.target - 4, rules.target + 2)
        outs += check_against_the_engine(w, i) >= 0
    assert outs > 0  # the scores near the target take someone out now and then


@pytest.mark.parametrize(
    ("rules", "hands", "dealer"),
    [
        (Rules(players=2, smudge=True), ["As Ks Qs Js Ts 2s", "3h 4h 5h 6h 7h 8h"], 1),
        (
            Rules(partnerships=True, smudge=True),
            ["As Ks Qs Js Ts 9s", "3h 4h 5h 6h 7h 8h", "2s 3c 4c 5c 6c 7c", "3d 4d 5d 6d 7d 8d"],
            3,
        ),
        (
            Rules(players=3, smudge=True),
            ["As Ks Qs Js Ts 2s", "3h 4h 5h 6h 7h 8h", "3d 4d 5d 6d 7d 8d"],
            2,
        ),
    ],
)
def test_a_forced_smudge_goes_out_unless_the_score_before_was_negative(
    rules: Rules, hands: list[str], dealer: int
) -> None:
    # Seat 0 bids 4 and holds every spade in play: every playout takes all four points.
    s = dealt(rules, hands, dealer=dealer)
    while s.current_player() != 0:
        s.apply(parse_action("pass"))
    s.apply(parse_action("bid 4"))
    for policy_seed in range(4):
        for before, want in [(0, 0), (3, 0), (-1, -1), (-3, -1)]:
            w = pack(s)
            w[L.SCORES] = before
            assert check_against_the_engine(w, policy_seed) == want, (before, policy_seed)
            no_smudge = pack(s)
            no_smudge[L.SMUDGE] = 0
            no_smudge[L.SCORES] = before
            by_target = 0 if before + 4 >= rules.target else -1  # R6.2 alone
            assert check_against_the_engine(no_smudge, policy_seed) == by_target
