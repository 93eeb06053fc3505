"""The learned game value as the bots read it: the shipped model, a bad file refused,
and the search reading it (its training is tests/training/test_winvalue.py)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from pitch.bots import make_bot, winvalue
from pitch.engine import GameState, Rules
from pitch.engine.errors import PitchError
from pitch.fastcore._jit import new_floats
from pitch.fastcore.value import CELLS, win_cell, win_value
from tests.support.finished import finished_hand


def test_the_shipped_table_knows_the_score() -> None:
    t = winvalue.shipped().table
    for sides in (2, 3, 4):
        for deals in (0, 1):
            for other in (1, 4, 7):
                # Needing 1 point beats needing 7; the closest other side needing 1
                # is worse than it needing 7.
                assert t[win_cell(sides, deals, 1, other)] > t[win_cell(sides, deals, 7, other)]
                assert t[win_cell(sides, deals, other, 1)] < t[win_cell(sides, deals, other, 7)]
    # At 0-0 in a game to 7 the dealing side is ahead (it bids last, R3.1, R3.6), and
    # the two sides' chances add up to about 1.
    start = [t[win_cell(2, d, 7, 7)] for d in (0, 1)]
    assert start[1] > start[0] and abs(sum(start) - 1.0) < 0.05


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(table=d["table"][:-1]), "cells"),
        (lambda d: d["table"].__setitem__(5, 1.5), "0..1"),
        (lambda d: d["table"].__setitem__(5, "0.5"), "0..1"),
        (lambda d: d.update(scale=float("inf")), "scale"),
        (lambda d: d.update(scale=-1), "scale"),
        (lambda d: d.update(format=99), "format"),
    ],
)
def test_a_bad_model_file_is_refused(tmp_path: Path, change: object, message: str) -> None:
    data = json.loads(winvalue.MODEL_PATH.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PitchError, match=message):
        winvalue.read(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(PitchError, match="cannot read"):
        winvalue.read(path)


def _value(
    rules: Rules, scores: list[int], delta: tuple[int, ...], pitcher: int, side: int
) -> float:
    w, res = finished_hand(rules, scores, delta, pitcher)
    t = new_floats(CELLS)
    t[:] = winvalue.shipped().table
    return float(win_value(w, res, side, t, 10.0))


def test_win_value_is_the_game_when_the_hand_ends_it() -> None:
    rules = Rules(partnerships=True, target=7)
    # Side 0 pitched from 5 and made 2: it goes out (R6.2).
    assert _value(rules, [5, 0], (2, -2), 0, 0) == 10.0
    assert _value(rules, [5, 0], (2, -2), 0, 1) == 0.0
    # Side 1 passes the target without pitching: play on (R6.2), read from the table
    # (dealer 0 dealt, so seat 1's side deals next).
    t = winvalue.shipped().table
    got = _value(rules, [5, 6], (0, 2), 0, 1)
    assert math.isclose(got, 10.0 * t[win_cell(2, 1, -1, 2)])
    assert math.isclose(_value(rules, [5, 6], (0, 2), 0, 0), 10.0 * t[win_cell(2, 0, 2, -1)])


def test_master_playing_for_the_game_acts_legally() -> None:
    rules = Rules(partnerships=True, target=7)
    bot = make_bot("pimc:win_weight=1,samples=8,time=1", rng=random.Random(3))
    st = GameState(rules)
    st.deal_random(random.Random(3))
    for _ in range(12):
        view = st.view(st.current_player())
        a = bot.act(view)
        assert view.legal >> a & 1
        st.apply(a)
    for bad in ("chips", "1.5", "-0.1", "nan"):
        with pytest.raises(ValueError, match="win_weight"):
            make_bot(f"pimc:win_weight={bad}", rng=random.Random(0))
