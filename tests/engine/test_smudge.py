"""Smudge (house rule on R6, option ``smudge``): a side that bids 4 and takes High, Low,
Jack and Game wins at once, unless its score before the hand was negative."""

from __future__ import annotations

import copy

import pytest

from pitch.engine import OVER, GameState, Rules, game_record, verify_record
from pitch.engine.rules import END_TEXTS
from tests.engine import referee
from tests.support.deals import dealt, finish_hand, play

SMUDGE = Rules(players=2, smudge=True)
# Heads-up, dealer 1: seat 0 bids first, bids 4 (R3.4: the auction ends) and holds every
# spade in play, so it takes every trick: High As, Low 2s, Jack Js, Game 20 to 0.
ALL_FOUR = ["As Ks Qs Js Ts 2s", "3h 4h 5h 6h 7h 8h"]


def bid_four(rules: Rules, hands: list[str], scores: list[int] | None = None) -> GameState:
    s = dealt(rules, hands, dealer=1)
    if scores is not None:
        s.scores = list(scores)
    return play(s, "bid 4")


def test_bid_four_and_all_four_points_wins_at_once() -> None:
    s = finish_hand(bid_four(SMUDGE, ALL_FOUR))
    r = s.history[-1].result
    assert r is not None and (r.high, r.low, r.jack, r.game, r.made) == (0, 0, 0, 0, True)
    assert s.phase == OVER and s.winner == 0 and s.scores == [4, 0]  # 4 < target 7
    assert s.end_reason == "smudge" and "Smudge" in END_TEXTS["smudge"]


def test_without_the_option_the_game_goes_on() -> None:
    s = finish_hand(bid_four(Rules(players=2), ALL_FOUR))
    assert s.phase != OVER and s.winner is None and s.scores == [4, 0]


@pytest.mark.parametrize(("before", "smudged"), [(-1, False), (-4, False), (0, True), (2, True)])
def test_a_negative_score_before_the_hand_is_no_smudge(before: int, smudged: bool) -> None:
    s = finish_hand(bid_four(SMUDGE, ALL_FOUR, [before, 0]))
    assert (s.winner == 0) is smudged
    assert s.end_reason == ("smudge" if smudged else None)
    assert s.scores[0] == before + 4


def test_no_jack_dealt_is_only_three_points_in_play() -> None:
    s = finish_hand(bid_four(SMUDGE, ["As Ks Qs Ts 9s 2s", "3h 4h 5h 6h 7h 8h"]))
    r = s.history[-1].result
    assert r is not None and r.jack is None and not r.made  # set back: 3 of 4 (R5.6)
    assert s.winner is None and s.scores == [-4, 0]


def test_a_tie_for_game_is_not_all_four() -> None:
    s = bid_four(SMUDGE, ["As Js 2s 3h 3d 4d", "Ah 4h Jh 5c 6c 7c"])
    # Seat 0 takes its three trump leads; seat 1 the hearts and the rest: 5 game points each.
    play(s, "As", "5c", "Js", "6c", "2s", "7c", "3h", "Ah", "Jh", "3d", "4h", "4d")
    r = s.history[-1].result
    assert r is not None and r.game_counts == (5, 5) and r.game is None  # R5.4
    assert (r.high, r.low, r.jack) == (0, 0, 0) and not r.made
    assert s.winner is None


def test_the_partnership_game_smudges_as_a_team() -> None:
    rules = Rules(partnerships=True, smudge=True)
    hands = ["As Ks Qs Js Ts 9s", "3h 4h 5h 6h 7h 8h", "2s 3c 4c 5c 6c 7c", "3d 4d 5d 6d 7d 8d"]
    s = dealt(rules, hands, dealer=3)
    finish_hand(play(s, "bid 4"))
    r = s.history[-1].result
    assert r is not None and (r.high, r.low, r.jack, r.game) == (0, 0, 0, 0)
    assert s.winner == 0 and s.end_reason == "smudge"  # team 0 (seats 0 and 2)


def test_smudge_with_must_make_bid_to_win_and_another_side_past_the_target() -> None:
    rules = Rules(players=2, smudge=True, must_make_bid_to_win=True)
    s = finish_hand(bid_four(rules, ALL_FOUR, [0, 9]))  # seat 1 passed 7 without pitching
    assert s.winner == 0 and s.end_reason == "smudge"


def test_reaching_the_target_by_a_smudge_says_smudge() -> None:
    s = finish_hand(bid_four(SMUDGE, ALL_FOUR, [5, 0]))
    assert s.winner == 0 and s.scores == [9, 0] and s.end_reason == "smudge"
    s = finish_hand(bid_four(Rules(players=2), ALL_FOUR, [5, 0]))
    assert s.winner == 0 and s.end_reason == "target"


def test_records_carry_smudge_and_verify_checks_the_winner() -> None:
    s = finish_hand(bid_four(SMUDGE, ALL_FOUR))
    rec = game_record(s)
    assert rec["rules"]["smudge"] is True and rec["winner"] == 0
    assert verify_record(rec) is None
    assert referee.check(rec) == []  # the independent referee agrees
    for wrong in (None, 1):
        bad = copy.deepcopy(rec)
        bad["winner"] = wrong
        problem = verify_record(bad)
        assert problem is not None and problem.rule == "R6.2", problem
        assert referee.check(bad) != []
    # The same hands without the house rule: nobody has won yet.
    off = copy.deepcopy(rec)
    off["rules"]["smudge"] = False
    problem = verify_record(off)
    assert problem is not None and problem.rule == "R6.2" and "unfinished" in problem.message
    assert referee.check(off) != []


def test_records_without_the_key_read_as_before() -> None:
    assert "smudge" not in Rules().to_dict() and "smudge" not in repr(Rules())
    assert Rules.from_dict(Rules().to_dict()) == Rules()
    assert Rules.from_dict({"players": 3}).smudge is False
    assert "smudge=True" in repr(SMUDGE)
