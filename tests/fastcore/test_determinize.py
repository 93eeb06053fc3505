"""The kernel determinization agrees with the view it was packed from."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from pitch.engine import BID, PLAY, PitchError, PlayerView, Rules
from pitch.engine.cards import SUIT_MASK
from pitch.fastcore import COMPILED, unpack
from pitch.fastcore import layout as L
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.determinize import SCRATCH_SIZE, determinize
from pitch.fastcore.search import pack_view
from tests.fastcore.diffcheck import TABLES, in_pure_python
from tests.fastcore.test_api import positions


def _views(rules: Rules, seed: int, count: int) -> list[PlayerView]:
    """Views of every seat (not only the one to act) at random moments."""
    rng = random.Random(seed)
    out = []
    for s in positions(rules, rng, count):
        out.append(s.view(rng.randrange(rules.players)))
    return out


def _deals(view: PlayerView, seed: int, count: int, tries: int) -> list[Any]:
    pos, aux = pack_view(view, random.Random(seed), tries=tries)
    w = new_array([0] * L.SIZE)
    sc = new_array([0] * SCRATCH_SIZE)
    s = seed64(seed)
    out = []
    for _ in range(count):
        s = seed64(int(determinize(pos, aux, w, sc, s)))
        out.append([int(x) for x in w])
    return out


def sample_all() -> list[list[Any]]:
    """Deals for views of every table, checked against their views (runs compiled,
    or as Python in a subprocess)."""
    out = []
    for rules in TABLES:
        for i, view in enumerate(_views(rules, rules.players * 7 + 1, 12)):
            deals = _deals(view, i, 3, tries=6 if i % 2 else 1)
            for w in deals:
                _agrees(view, w)
            out.append(deals)
    return out


def _agrees(view: PlayerView, w: list[int]) -> None:
    n = view.rules.players
    hands = w[L.HANDS : L.HANDS + n]
    assert hands[view.seat] == view.hand
    assert [h.bit_count() for h in hands] == list(view.hand_sizes)
    for t in range(n):
        if t != view.seat:
            assert hands[t] & ~view.unseen == 0, "a hidden hand holds a seen card"
            for suit in range(4):
                if view.voids[t] >> suit & 1:
                    assert hands[t] & SUIT_MASK[suit] == 0, "R4.3: a void suit was dealt"
    union = 0
    for h in hands:
        assert union & h == 0, "a card dealt twice"
        union |= h
    # The position replays through the checked engine to the same view.
    state = unpack(w)
    again = state.view(view.seat)
    for field in ("hand", "phase", "bids", "trick", "tricks", "played_by", "voids", "legal"):
        assert getattr(again, field) == getattr(view, field), field


def test_determinizations_agree_with_the_view_compiled_and_in_python() -> None:
    here = sample_all()
    if not COMPILED:
        return
    python = in_pure_python("tests.fastcore.test_determinize", "sample_all")
    assert python == here, "the Python source draws other deals"


def test_unconstrained_cards_are_spread_like_the_hand_sizes() -> None:
    # Seat 0's view at the start of the auction: 18 hidden cards among 46 unseen;
    # each unseen card lands in each other hand with probability 6/46.
    rules = Rules(players=4)
    view = next(v for v in _views(rules, 11, 40) if v.seat == 0 and v.phase == BID)
    card = (view.unseen & -view.unseen).bit_length() - 1
    where: Counter[int] = Counter()
    deals = _deals(view, 5, 2300, tries=1)
    for w in deals:
        holder = [t for t in range(4) if w[L.HANDS + t] >> card & 1]
        where[holder[0] if holder else -1] += 1
    for t in (1, 2, 3):
        assert 220 <= where[t] <= 380, where  # expected 300, sd ~16
    assert 1200 <= where[-1] <= 1500, where  # undealt: 28/46 of 2300 = 1400


def test_voids_are_respected_under_pressure() -> None:
    # Play random hands until some seat shows a void; its hidden cards never
    # include that suit, over many draws.
    checked = 0
    for view in _views(Rules(players=3), 21, 300):
        if view.phase == PLAY and any(view.voids[t] for t in range(3) if t != view.seat):
            for w in _deals(view, checked, 30, tries=1):
                _agrees(view, w)
            checked += 1
    assert checked >= 10


def test_pack_view_refuses_a_view_with_no_hand_in_progress() -> None:
    from pitch.engine import GameState

    with pytest.raises(PitchError, match="auction or the play"):
        pack_view(GameState(Rules()).view(0), random.Random(1))
