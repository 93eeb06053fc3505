"""Views hide everything hidden; the resampler deals only what a seat could believe."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitch.engine import BID, FULL_DECK, OVER, PLAY, GameState, PitchError, Rules, resample
from pitch.engine.cards import SUIT_MASK
from tests.engine.test_properties import TABLES

PROPS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def midgame(rules: Rules, seed: int) -> GameState:
    """A random state in the auction or the play, after a random number of steps."""
    rng = random.Random(seed)
    s = GameState.new_game(rules, rng)
    steps = rng.randrange(1, 6 * rules.players + 12)
    while True:
        if s.is_chance_node():
            s.deal_random(rng)
        elif s.is_terminal():
            s = GameState.new_game(rules, rng)
        else:
            if steps <= 0 and s.phase in (BID, PLAY):
                return s
            s.apply(rng.choice(list(s.legal_actions())))
            steps -= 1


def reshuffle_hidden(s: GameState, seat: int, rng: random.Random) -> GameState:
    """The same state with every card ``seat`` cannot see dealt differently: other
    seats' unplayed cards and the undealt cards are pooled and redealt at random."""
    alt = s.copy()
    pool = FULL_DECK
    for t in range(s.n):
        pool &= ~(s.dealt[t] if t == seat else s.dealt[t] & ~s.hands[t])
    cards = [c for c in range(52) if pool >> c & 1]
    rng.shuffle(cards)
    for t in range(s.n):
        if t == seat:
            continue
        k = s.hands[t].bit_count()
        new = sum(1 << c for c in cards[:k])
        cards = cards[k:]
        alt.hands[t] = new
        alt.dealt[t] = (s.dealt[t] & ~s.hands[t]) | new
    return alt


@PROPS
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_views_contain_nothing_hidden(rules: Rules, seed: int) -> None:
    s = midgame(rules, seed)
    rng = random.Random(seed)
    for seat in range(s.n):
        alt = reshuffle_hidden(s, seat, rng)
        assert alt.view(seat) == s.view(seat)


def test_views_do_show_own_cards() -> None:
    """The check above could pass on a view that shows nothing; this one cannot."""
    s = midgame(Rules(), 3)
    seat = s.current_player()
    alt = s.copy()
    own = s.hands[seat]
    low = own & -own
    spare = next(1 << c for c in range(52) if not any((d >> c) & 1 for d in s.dealt))
    alt.hands[seat] = own ^ low | spare
    alt.dealt[seat] = s.dealt[seat] ^ low | spare
    assert alt.view(seat) != s.view(seat)
    assert s.view(seat).legal == s.legal_mask()
    assert s.view((seat + 1) % s.n).legal == 0


def test_thrown_in_hands_keep_only_own_cards_in_views() -> None:
    rules = Rules(all_pass="redeal")
    for seed in range(300):
        s = midgame(rules, seed)
        thrown = [i for i, h in enumerate(s.history) if h.pitcher is None]
        if thrown:
            break
    else:
        pytest.fail("no thrown-in hand found")
    for seat in range(s.n):
        v = s.view(seat)
        for i in thrown:
            deal = v.history[i].deal
            assert deal[seat] == s.history[i].deal[seat]
            assert all(m == 0 for t, m in enumerate(deal) if t != seat)


def test_view_while_dealing_and_after_the_game() -> None:
    s = GameState(Rules())
    v = s.view(0)
    assert v.hand == 0 and v.dealt == 0 and v.hand_sizes == (0, 0, 0, 0) and v.legal == 0
    s.apply(0)  # the first card goes to seat 1, which must not see it yet in a view of 0
    assert s.view(0) == GameState(Rules()).view(0)
    assert s.view(1).hand == 1
    with pytest.raises(ValueError, match=r"R1\.3"):
        s.view(4)


@PROPS
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_resample_is_consistent_with_the_view(rules: Rules, seed: int) -> None:
    s = midgame(rules, seed)
    rng = random.Random(seed)
    for seat in range(s.n):
        view = s.view(seat)
        for _ in range(3):
            r = resample(view, rng)
            assert r.view(seat) == view  # own hand, played cards, bids, voids, scores...
            assert r.hands[seat] == s.hands[seat] and r.dealt[seat] == s.dealt[seat]
            union = 0
            for t in range(s.n):
                assert r.hands[t].bit_count() == s.hands[t].bit_count()
                assert r.dealt[t].bit_count() == 6 and not union & r.dealt[t]
                union |= r.dealt[t]
                assert r.dealt[t] & ~r.hands[t] == s.dealt[t] & ~s.hands[t]  # played kept
                for suit in range(4):
                    if view.voids[t] >> suit & 1:
                        assert not r.hands[t] & SUIT_MASK[suit]
            if s.current_player() == seat:
                assert r.legal_mask() == s.legal_mask()
            assert r.current_player() == s.current_player() and r.phase == s.phase


def test_resample_needs_auction_or_play() -> None:
    s = GameState(Rules())
    with pytest.raises(PitchError):
        resample(s.view(0), random.Random(1))
    s = midgame(Rules(players=3, target=1), 5)
    while not s.is_terminal():
        if s.is_chance_node():
            s.deal_random(random.Random(2))
        else:
            s.apply(next(iter(s.legal_actions())))
    assert s.phase == OVER and s.view(0).hand == 0
    with pytest.raises(PitchError):
        resample(s.view(0), random.Random(1))
