"""The search fast path follows exactly the rules of GameState, action for action."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitch.engine import BID, BID_BASE, DEAL, PLAY, GameState, Rules
from pitch.engine.fast import random_bid_value, random_hands, random_playout
from tests.engine.test_properties import TABLES
from tests.engine.test_views import midgame
from tests.support.deals import snapshot


def slow_playout(state: GameState, rng: random.Random) -> tuple[int, ...]:
    """The same random choices as random_playout, through the checked API."""
    s = state.copy()
    hands = len(s.history)
    while s.phase == BID:
        s.apply(BID_BASE + random_bid_value(s, rng))
    if len(s.history) > hands:  # thrown in
        return (0,) * s.num_sides
    while len(s.history) == hands:
        mask = s.legal_mask()
        k = int(rng.random() * mask.bit_count())
        for _ in range(k):
            mask &= mask - 1
        s.apply((mask & -mask).bit_length() - 1)
    result = s.history[-1].result
    assert result is not None
    return result.delta


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_random_playout_matches_the_state_machine(rules: Rules, seed: int) -> None:
    s = midgame(rules, seed)
    before = snapshot(s)
    fast = random_playout(s, random.Random(seed))
    assert snapshot(s) == before  # the state is not modified
    assert fast == slow_playout(s, random.Random(seed))


def test_random_playout_needs_auction_or_play() -> None:
    s = GameState(Rules())
    assert s.phase == DEAL
    with pytest.raises(ValueError):
        random_playout(s, random.Random(1))
    s.deal_random(random.Random(1))
    assert s.phase == BID and len(random_playout(s, random.Random(1))) == 4


def test_random_hands_runs() -> None:
    s = GameState(Rules(players=5))
    assert isinstance(random_hands(s, random.Random(1), 20), int)
    assert s.phase != PLAY
