"""The PIMC search (pitch.fastcore.pimc) values actions as its readable oracle does."""

from __future__ import annotations

import random

import pytest

from pitch.bots import make_bot
from pitch.bots.pimc import PimcBot
from pitch.engine import BID, PitchError, Rules
from pitch.fastcore import layout as L
from pitch.fastcore import unpack
from pitch.fastcore._jit import new_array, new_floats, seed64
from pitch.fastcore.determinize import SCRATCH_SIZE, determinize
from pitch.fastcore.pimc import pimc_values
from pitch.fastcore.search import PimcSearch, pack_view
from tests.fastcore.diffcheck import TABLES
from tests.fastcore.test_api import positions
from tests.support.policy_oracle import heuristic_rollout
from tests.support.search_oracle import action_outcome, hand_value


@pytest.mark.parametrize("rules", TABLES[::2], ids=repr)
def test_kernel_values_equal_python_values_on_the_same_deal(rules: Rules) -> None:
    # One sample: the kernel determinizes with seed s first, so determinize(seed s)
    # gives the deal it searched; the Python search on that deal (apply, then the
    # heuristic rollout, then hand_value) must give the very same payoffs.
    rng = random.Random(rules.players)
    checked = 0
    for i, st in enumerate(positions(rules, rng, 30)):
        view = st.view(st.current_player())
        actions = list(view.legal_actions())
        pos, aux = pack_view(view, random.Random(i), tries=1 + i % 6)
        w0 = new_array([0] * L.SIZE)
        sc = new_array([0] * SCRATCH_SIZE)
        bonus = 6.0 if i % 2 else 2.0
        vals = new_floats(len(actions))
        pimc_values(
            pos, aux, new_array(actions), 1, L.HEURISTIC, bonus, new_floats(0), 0.0, 1.0,
            seed64(i), vals,
            w0, new_array([0] * L.SIZE), sc, new_array([0] * L.R_SIZE), new_array([]),
        )  # fmt: skip
        determinize(pos, aux, w0, sc, seed64(i))
        deal = unpack(w0)
        for a, got in zip(actions, vals, strict=True):
            delta, pitcher = action_outcome(deal, a, heuristic_rollout, rng)
            want = hand_value(rules, view.scores, delta, pitcher, view.side, bonus)
            assert float(got) == want, (i, a)
            checked += 1
    assert checked > 60


def test_search_values_have_one_row_per_sample() -> None:
    st = positions(Rules(players=3), random.Random(3), 5)[-1]
    view = st.view(st.current_player())
    actions = list(view.legal_actions())
    values = PimcSearch().values(view, actions, 37, 6.0, random.Random(1))
    assert [len(v) for v in values] == [37] * len(actions)
    assert all(-20 <= x <= 20 for row in values for x in row)
    with pytest.raises(PitchError, match="not legal"):
        bad = next(a for a in range(57) if not view.legal >> a & 1)
        PimcSearch().values(view, [bad], 1, 6.0, random.Random(1))


def test_random_rollout_kernel_search_is_seeded() -> None:
    st = positions(Rules(partnerships=True), random.Random(8), 9)[-1]
    view = st.view(st.current_player())
    actions = list(view.legal_actions())
    search = PimcSearch(L.RANDOM)
    a = search.values(view, actions, 20, 6.0, random.Random(5))
    b = search.values(view, actions, 20, 6.0, random.Random(5))
    assert a == b
    assert a != search.values(view, actions, 20, 6.0, random.Random(6))


def test_master_searches_with_the_learned_rollout_policy() -> None:
    bot = make_bot("master", rng=random.Random(1))
    assert isinstance(bot, PimcBot) and bot.kernel.policy == L.LEARNED
    before = make_bot("pimc:rollout=heuristic", rng=random.Random(1))  # master before issue 48
    assert isinstance(before, PimcBot) and before.kernel.policy == L.HEURISTIC
    other = make_bot("pimc:rollout=random", rng=random.Random(1))
    assert isinstance(other, PimcBot) and other.kernel.policy == L.RANDOM


def test_kernel_pimc_plays_whole_hands_legally() -> None:
    bot = make_bot("pimc:samples=30,time=2", rng=random.Random(4))
    rules = Rules(players=4, target=7)
    for deal in range(2):
        st = positions(rules, random.Random(deal), 1)[0]
        while st.phase in (BID, 2) and len(st.history) == 0:
            seat = st.current_player()
            a = bot.act(st.view(seat))
            st.apply(a)  # checked: raises on an illegal action
