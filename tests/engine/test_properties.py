"""Property-based tests (hypothesis) over random games on every table."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitch.engine import (
    BID,
    DEAL,
    FULL_DECK,
    OVER,
    PLAY,
    GameState,
    Rules,
    dumps,
    game_record,
    replay_record,
    verify_record,
)
from tests.conftest import ALL_TABLES
from tests.engine import referee
from tests.support.deals import snapshot

TABLES = [
    *ALL_TABLES,
    Rules(partnerships=True, low_to="holder", dealer_may_steal=False, target=11),
    Rules(players=4, all_pass="redeal", must_make_bid_to_win=True),
    Rules(players=6, min_bid=2, target=5),
    Rules(players=2, target=3, low_to="holder"),
]
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tables = st.sampled_from(TABLES)
seeds = st.integers(0, 2**32 - 1)


def check_cards(s: GameState) -> None:
    """Cards are conserved: hands + played = dealt, six per seat, all disjoint."""
    if s.phase in (DEAL, OVER):
        return
    union = 0
    for seat in range(s.n):
        assert s.dealt[seat].bit_count() == 6
        assert s.hands[seat] & ~s.dealt[seat] == 0
        assert union & s.dealt[seat] == 0
        union |= s.dealt[seat]
    played = 0
    for h, d in zip(s.hands, s.dealt, strict=True):
        played |= d & ~h
    assert played == s.played_mask()
    assert union <= FULL_DECK
    # Each seat has played one card per finished trick, plus one if it played to this one.
    done = len(s.tricks)
    for seat in range(s.n):
        in_trick = any((s.leader + k) % s.n == seat for k in range(len(s.trick)))
        assert s.hands[seat].bit_count() == 6 - done - in_trick


def check_hand_result(s: GameState, before: list[int]) -> None:
    """A finished hand's awards, won, made, delta and scores agree with each other."""
    h = s.history[-1]
    if h.result is None:  # thrown in (house rule)
        assert list(h.scores) == before and h.pitcher is None
        return
    r = h.result
    won = [0] * s.num_sides
    for side in r.awards.values():
        if side is not None:
            won[side] += 1
    assert tuple(won) == r.won
    pside = s.rules.side_of(r.pitcher)
    assert r.made == (won[pside] >= r.bid)
    delta = list(won)
    if not r.made:
        delta[pside] = -r.bid
    assert tuple(delta) == r.delta
    assert list(h.scores) == [b + d for b, d in zip(before, delta, strict=True)]
    assert list(h.scores) == s.scores or s.phase == DEAL


def random_game(rules: Rules, seed: int, max_hands: int, checks: bool) -> GameState:
    rng = random.Random(seed)
    s = GameState.new_game(rules, rng)
    while not s.is_terminal() and len(s.history) < max_hands:
        if s.is_chance_node():
            s.deal_random(rng)
            continue
        if checks:
            check_cards(s)
        a = rng.choice(list(s.legal_actions()))
        if checks:
            before, hands, scores = snapshot(s), len(s.history), s.scores[:]
            # push/pop restore exactly; a copy is independent of the original.
            s.push(a)
            s.pop()
            assert snapshot(s) == before
            c = s.copy()
            c.apply(a)
            assert snapshot(s) == before
            s.apply(a)
            assert c._snapshot() == s._snapshot()
            if len(s.history) > hands:
                check_hand_result(s, scores)
        else:
            s.apply(a)
    return s


@PROPS
@given(tables, seeds)
def test_invariants_through_random_games(rules: Rules, seed: int) -> None:
    random_game(rules, seed, max_hands=4, checks=True)


@PROPS
@given(tables, seeds)
def test_chance_dealing_matches_deal_random(rules: Rules, seed: int) -> None:
    """Dealing card by card (chance actions) reaches the same state as deal()."""
    a = GameState(rules, dealer=seed % rules.players)
    a.deal_random(random.Random(seed))
    b = GameState(rules, dealer=a.dealer)
    rng = random.Random(seed ^ 1)
    while b.is_chance_node():
        outcomes = b.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        b.apply(rng.choice([c for c, _ in outcomes]))
    c = GameState(rules, dealer=a.dealer)
    c.deal(b.dealt)
    assert c._snapshot() == b._snapshot()
    assert b.phase == BID and all(h.bit_count() == 6 for h in b.hands)


@PROPS
@given(tables, seeds)
def test_record_round_trip(rules: Rules, seed: int) -> None:
    """Writing -> reading -> verifying a record round-trips, and replay rebuilds the game."""
    s = random_game(rules, seed, max_hands=8, checks=False)
    text = dumps(game_record(s, seed=seed, bots=["random"] * rules.players))
    rec = json.loads(text)
    assert verify_record(rec) is None
    assert referee.check(rec) == []
    again = replay_record(rec)
    assert again.history == s.history and again.scores == s.scores
    assert again.winner == s.winner
    assert dumps(game_record(again, seed=seed, bots=["random"] * rules.players)) == text


def test_referee_agrees_on_many_records() -> None:
    """The independent referee re-checks about 1,000 simulated records (some 2,000 hands)
    on every table, field by field: many short games, and a few long ones so that games
    are won (R6.2)."""
    records = hands = won = 0
    for k, rules in enumerate(TABLES):
        rng = random.Random(k)
        for i in range(86):
            s = random_game(rules, rng.getrandbits(32), max_hands=1 if i < 80 else 20, checks=False)
            rec = json.loads(dumps(game_record(s)))
            assert referee.check(rec) == [], rules
            records += 1
            hands += len(rec["hands"])
            won += rec["winner"] is not None
    assert records >= 1000 and hands > 1500 and won > 10


@pytest.mark.slow
def test_referee_agrees_on_many_games() -> None:
    """The larger run (``pytest --run-slow tests/engine``): 200 whole games per table."""
    for k, rules in enumerate(TABLES):
        rng = random.Random(1000 + k)
        for _ in range(200):
            s = random_game(rules, rng.getrandbits(32), max_hands=100, checks=False)
            rec = json.loads(dumps(game_record(s)))
            assert referee.check(rec) == [], rules
            assert verify_record(rec) is None


def test_play_phases_are_reached() -> None:
    """Guard against a generator that never plays: the invariants above must see play."""
    s = random_game(Rules(), 1, max_hands=2, checks=False)
    assert any(h.tricks for h in s.history) or s.phase == PLAY
