"""The observation vector says what the view says, and nothing more."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numpy")

from pitch.engine import GameState, Rules, parse_action
from pitch.rl.encoding import SCORE_CLIP, Encoding, action_mask


def _bits(v: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(v))


def test_segments_follow_the_view() -> None:
    rules = Rules(players=4)
    enc = Encoding(rules)
    s = GameState(rules, dealer=0)
    s.deal_random(random.Random(4))
    for a in ("bid 2", "pass", "pass", "pass"):
        s.apply(parse_action(a))
    lead = next(iter(s.legal_actions()))
    s.apply(lead)  # seat 1, the pitcher, leads
    for seat in range(4):
        view = s.view(seat)
        v = enc.encode(view)
        seg = enc.segments
        assert _bits(v[seg["hand"]]) == s.hands[seat]
        assert v[seg["trump"]].tolist() == [float(i == lead // 13) for i in range(4)]
        trick = v[seg["trick"]].reshape(4, 52)
        assert _bits(trick[(1 - seat) % 4]) == 1 << lead  # seat 1, relative to the observer
        assert v[seg["high_bid"]].tolist() == [0, 0, 1, 0, 0]
        assert v[seg["pitcher"]][(1 - seat) % 4] == 1
        assert v[seg["seat"]].tolist() == [float(i == seat) for i in range(4)]
        assert enc.low.shape == v.shape and ((enc.low <= v) & (v <= enc.high)).all()
    assert action_mask(s.legal_mask()).sum() == len(s.legal_actions())


def test_scores_are_relative_and_clipped() -> None:
    rules = Rules(partnerships=True, target=7)
    s = GameState(rules, dealer=0)
    s.deal_random(random.Random(1))
    s.scores = [-100, 14]
    v = Encoding(rules).encode(s.view(1))
    assert v[Encoding(rules).segments["scores"]].tolist() == [2.0, -SCORE_CLIP]


def test_a_view_of_another_table_is_refused() -> None:
    s = GameState(Rules(players=3))
    s.deal_random(random.Random(0))
    with pytest.raises(ValueError, match="different table"):
        Encoding(Rules(players=3, target=11)).encode(s.view(0))
