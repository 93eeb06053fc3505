"""Nested PIMC (pitch.fastcore.nested): the inner search sees only the seat's information set."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pitch.bots import make_bot
from pitch.bots.pimc import PimcBot
from pitch.engine import BID, PLAY, GameState, PitchError, Rules
from pitch.fastcore import COMPILED, pack
from pitch.fastcore import layout as L
from pitch.fastcore._jit import new_array, new_floats, seed64
from pitch.fastcore.determinize import (
    A_FORBID,
    A_NEED,
    A_PLAYED_BY,
    A_UNSEEN,
    AUX_SIZE,
    SCRATCH_SIZE,
    determinize,
)
from pitch.fastcore.nested import FLOAT_SCRATCH, _track, _view_aux, inner_choice, nested_values
from pitch.fastcore.pimc import pimc_values
from pitch.fastcore.rules import apply
from pitch.fastcore.search import PimcSearch, pack_view
from tests.fastcore.diffcheck import TABLES, in_pure_python
from tests.fastcore.test_api import positions


def _ints(size: int) -> Any:
    return new_array([0] * size)


@pytest.mark.parametrize("rules", TABLES, ids=repr)
def test_the_inner_information_set_is_the_seats_view(rules: Rules) -> None:
    # Play random hands on a packed position, tracking voids as the nested rollout
    # does; at every step, every seat's rebuilt information set must be exactly
    # what packing that seat's engine view gives (no hidden card leaks in, no
    # shown void is missed).
    rng = random.Random(rules.players * 13)
    checked = 0
    for _ in range(6):
        state = GameState(rules, dealer=rng.randrange(rules.players))
        state.deal_random(rng)
        w = pack(state)
        forbid = _ints(7)
        aux = _ints(AUX_SIZE)
        while state.phase in (BID, PLAY):
            n = rules.players
            for me in range(n):
                _, want = pack_view(state.view(me), random.Random(0))
                _view_aux(w, me, forbid, aux, want, 1)
                assert int(aux[A_UNSEEN]) == int(want[A_UNSEEN])
                for base in (A_NEED, A_FORBID, A_PLAYED_BY):
                    got = [int(x) for x in aux[base : base + n]]
                    assert got == [int(x) for x in want[base : base + n]], (base, me)
                checked += 1
            a = rng.choice(list(state.legal_actions()))
            if state.phase == PLAY:
                _track(w, a, forbid)
            apply(w, a)
            state.apply(a)
    assert checked > 100


def test_the_inner_choice_does_not_depend_on_the_hidden_hands() -> None:
    # Two deals that agree with the same view must get the same inner decision,
    # PRNG state and all: the inner search deals the hidden cards again from the
    # view, so the rollout's own deal cannot steer it.
    rules = Rules(partnerships=True)
    rng = random.Random(5)
    differ = 0
    checked = 0
    for i, state in enumerate(positions(rules, rng, 400)):
        me = state.current_player()
        if state.phase != PLAY or state.legal_mask().bit_count() < 2:
            continue
        view = state.view(me)
        pos, aux = pack_view(view, random.Random(i), tries=4)
        sc = _ints(SCRATCH_SIZE)
        deals = []
        for seed in (1, 2):
            w = _ints(L.SIZE)
            determinize(pos, aux, w, sc, seed64(seed + 7 * i))
            deals.append(w)
        if any(int(deals[0][L.HANDS + t]) != int(deals[1][L.HANDS + t]) for t in range(4)):
            differ += 1
        got = []
        for w in deals:
            forbid = new_array([int(x) for x in aux[A_FORBID : A_FORBID + 7]])
            card, s = inner_choice(
                w, view.legal, me, 6, 3, 6.0, seed64(i), forbid, aux, _ints(AUX_SIZE),
                _ints(L.SIZE), _ints(L.SIZE), _ints(SCRATCH_SIZE), _ints(L.R_SIZE),
                new_floats(FLOAT_SCRATCH), new_array([]),
            )  # fmt: skip
            assert view.legal >> int(card) & 1
            got.append((int(card), int(s)))
        assert got[0] == got[1], i
        checked += 1
        if checked == 25:
            break
    assert checked == 25 and differ > 10


def _search(view: Any, actions: list[int], samples: int, inner: int, seed: int) -> list[float]:
    pos, aux = pack_view(view, random.Random(seed), tries=3)
    vals = new_floats(samples * len(actions))
    nested_values(
        pos, aux, new_array(actions), samples, L.HEURISTIC, 2.0, inner, 2, 6.0, seed64(seed),
        vals, _ints(L.SIZE), _ints(L.SIZE), _ints(SCRATCH_SIZE), _ints(L.R_SIZE), new_array([]),
        _ints(7), _ints(AUX_SIZE), _ints(L.SIZE), _ints(L.SIZE), _ints(SCRATCH_SIZE),
        _ints(L.R_SIZE), new_floats(FLOAT_SCRATCH),
    )  # fmt: skip
    return [float(x) for x in vals]


def test_with_no_later_choice_the_nested_search_is_plain_pimc() -> None:
    # In the last trick (or after the seat's last card) nothing is left for the
    # inner search to choose: the values must be plain PIMC's, deal for deal.
    rules = Rules(players=3)
    rng = random.Random(9)
    checked = 0
    for i, state in enumerate(positions(rules, rng, 300)):
        if state.phase != PLAY or state.hands[state.current_player()].bit_count() != 1:
            continue
        view = state.view(state.current_player())
        actions = list(view.legal_actions())
        got = _search(view, actions, 3, 5, i)
        pos, aux = pack_view(view, random.Random(i), tries=3)
        want = new_floats(3 * len(actions))
        pimc_values(
            pos, aux, new_array(actions), 3, L.HEURISTIC, 2.0, seed64(i), want,
            _ints(L.SIZE), _ints(L.SIZE), _ints(SCRATCH_SIZE), _ints(L.R_SIZE), new_array([]),
        )  # fmt: skip
        assert got == [float(x) for x in want]
        checked += 1
    assert checked > 5


def nested_all() -> list[list[float]]:
    """Nested searches on views of several tables (compiled, or as Python in a
    subprocess): their values, to compare across the two."""
    out = []
    for rules in (Rules(partnerships=True), Rules(players=3), Rules(players=5)):
        for i, state in enumerate(positions(rules, random.Random(rules.players), 12)[::4]):
            view = state.view(state.current_player())
            out.append(_search(view, list(view.legal_actions()), 2, 2, i))
    return out


def test_the_compiled_nested_search_is_the_python_source() -> None:
    here = nested_all()
    assert len(here) == 9 and all(here)
    if not COMPILED:
        return
    python = in_pure_python("tests.fastcore.test_nested", "nested_all")
    assert python == here, "the Python source searches otherwise"


@pytest.mark.skipif(not COMPILED, reason="nested=... needs numba")
def test_nested_pimc_plays_whole_hands_legally() -> None:
    bot = make_bot("pimc:nested=4,samples=6,time=5", rng=random.Random(4))
    assert isinstance(bot, PimcBot) and bot.nested == 4
    for rules in (Rules(partnerships=True), Rules(players=5)):
        state = positions(rules, random.Random(rules.players), 1)[0]
        while state.phase in (BID, PLAY) and not state.history:
            state.apply(bot.act(state.view(state.current_player())))  # checked


def test_nested_options_are_checked() -> None:
    with pytest.raises(ValueError, match="nested"):
        make_bot("pimc:nested=-1")
    with pytest.raises(ValueError, match="nested"):
        make_bot("pimc:nested=4,rollout=heuristic")
    with pytest.raises(ValueError, match="nested"):
        make_bot("pimc:nested=4,nested_tries=0")


def test_nested_search_refuses_illegal_actions() -> None:
    state = positions(Rules(), random.Random(2), 3)[-1]
    view = state.view(state.current_player())
    bad = next(a for a in range(57) if not view.legal >> a & 1)
    with pytest.raises(PitchError, match="not legal"):
        PimcSearch(nested=2).values(view, [bad], 1, 6.0, random.Random(1))
