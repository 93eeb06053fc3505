"""The exact solver (pitch.fastcore.dd) against a plain minimax over the engine."""

from __future__ import annotations

import random

import pytest

from pitch.bots import make_bot
from pitch.bots.heuristic import hand_outcome
from pitch.bots.pimc import hand_value
from pitch.engine import GameState, Rules
from pitch.engine.state import BID, PLAY
from pitch.fastcore import layout as L
from pitch.fastcore import unpack
from pitch.fastcore._jit import new_array, new_floats, seed64
from pitch.fastcore.dd import INF, dd_values, new_table, solve
from pitch.fastcore.determinize import SCRATCH_SIZE, determinize
from pitch.fastcore.search import _position, heuristic_action, pack_view
from tests.fastcore.diffcheck import in_pure_python
from tests.fastcore.test_api import positions as api_positions

TABLES = [
    Rules(partnerships=True),
    Rules(players=3),
    Rules(players=2),
    Rules(players=4, low_to="holder"),
    Rules(players=5, must_make_bid_to_win=True),
]


def minimax(state: GameState, side: int, bonus: float) -> float:
    """Every line of play, no pruning, no shortcuts: the viewer's side maximises."""
    if state.phase != PLAY:
        delta, pitcher = hand_outcome(state)
        before = [s - d for s, d in zip(state.history[-1].scores, delta, strict=True)]
        return hand_value(state.rules, before, delta, pitcher, side, bonus)
    values = []
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        values.append(minimax(child, side, bonus))
    return max(values) if state.rules.side_of(state.to_act) == side else min(values)


def positions(rules: Rules, seed: int, cards_left: int) -> GameState:
    """A random hand played at random until ``cards_left`` cards are left in hands."""
    rng = random.Random(seed)
    st = GameState.new_game(rules, rng=rng)
    st.scores = [rng.randrange(-3, rules.target) for _ in st.scores]
    while True:
        st.deal_random(rng)
        while st.phase == BID:
            st.apply(rng.choice(list(st.legal_actions())))
        if st.phase == PLAY:
            break
    while sum(h.bit_count() for h in st.hands) > cards_left:
        st.apply(rng.choice(list(st.legal_actions())))
    return st


@pytest.mark.parametrize("rules", TABLES, ids=str)
@pytest.mark.parametrize(("deals", "most"), [(300, 10), (20, 12)], ids=["endings", "3-tricks"])
def test_solve_equals_minimax(rules: Rules, deals: int, most: int) -> None:
    # Many short endings: a wrong shortcut (say, two low trumps taken as
    # interchangeable) shows in about one ending in 500.
    res = new_array([0] * L.R_SIZE)
    checked = 0
    for seed in range(deals):
        st = positions(rules, seed, min(2 * rules.players + seed % 5, most))
        if st.phase != PLAY:
            continue
        side = rules.side_of(st.to_act) if seed % 2 else rules.side_of((st.to_act + 1) % st.n)
        bonus = (6.0, 2.0, 0.0)[seed % 3]
        w = _position(st)
        before = [int(x) for x in w[: L.POSITION_SIZE]]
        got = solve(w, side, bonus, -INF, INF, res, *new_table(8))
        assert [int(x) for x in w[: L.POSITION_SIZE]] == before, "solve must restore the position"
        assert got == pytest.approx(minimax(st, side, bonus)), f"seed {seed}"
        checked += 1
    assert checked >= deals * 3 // 4


@pytest.mark.parametrize("rules", [Rules(partnerships=True), Rules(players=3)], ids=str)
def test_dd_values_solve_the_deal_the_search_drew(rules: Rules) -> None:
    # One sample: dd_values determinizes with seed s first, so determinize(seed s)
    # gives the deal it searched; each action's value must be that deal solved
    # after the action (an auction finished by the heuristic first).
    checked = 0
    for i, st in enumerate(api_positions(rules, random.Random(rules.players), 40)):
        view = st.view(st.current_player())
        actions = list(view.legal_actions())
        pos, aux = pack_view(view, random.Random(i), tries=1 + i % 3)
        w0 = new_array([0] * L.SIZE)
        sc = new_array([0] * SCRATCH_SIZE)
        res = new_array([0] * L.R_SIZE)
        vals = new_floats(len(actions))
        dd_values(
            pos, aux, new_array(actions), 1, L.HEURISTIC, 6.0, seed64(i), vals,
            w0, new_array([0] * L.SIZE), sc, res, *new_table(8),
        )  # fmt: skip
        determinize(pos, aux, w0, sc, seed64(i))
        deal = unpack(w0)
        for a, got in zip(actions, vals, strict=True):
            after = deal.copy()
            after.apply(a)
            while after.phase == BID:
                after.apply(heuristic_action(after))
            if after.phase == PLAY:
                w = _position(after)
                assert float(got) == solve(w, view.side, 6.0, -INF, INF, res, *new_table(8)), (i, a)
            checked += 1
    assert checked > 30


def test_pimc_solve_option() -> None:
    st = api_positions(Rules(partnerships=True), random.Random(5), 12)[-1]
    view = st.view(st.current_player())
    for solve_opt in ("play", "all", "none"):
        bot = make_bot(f"pimc:samples=3,time=5,solve={solve_opt}", rng=random.Random(1))
        assert view.legal >> bot.act(view) & 1
    with pytest.raises(ValueError, match="solve must be one of"):
        make_bot("pimc:solve=sometimes")
    with pytest.raises(ValueError, match="needs the compiled search"):
        make_bot("pimc:solve=play,rollout=heuristic")


def solved_endings() -> list[float]:
    """Values of short endings on every table (for the compiled/Python check)."""
    res = new_array([0] * L.R_SIZE)
    out = []
    for rules in TABLES:
        for seed in range(12):
            st = positions(rules, seed, min(2 * rules.players + seed % 5, 12))
            if st.phase == PLAY:
                w = _position(st)
                out.append(solve(w, rules.side_of(st.to_act), 6.0, -INF, INF, res, *new_table(8)))
    return out


def test_solve_is_the_same_compiled_and_in_python() -> None:
    assert in_pure_python("tests.fastcore.test_dd", "solved_endings") == solved_endings()
