"""The Python-facing API of pitch.fastcore: pack/unpack, playouts, batches, policies."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading

import pytest

from pitch import fastcore
from pitch.engine import BID, PLAY, GameState, PitchError, Rules
from pitch.engine.rules import OPTIONS
from pitch.fastcore import (
    COMPILED,
    layout,
    pack,
    playout,
    playout_many,
    policy_mask,
    random_playout,
    simulate_hands,
    unpack,
    warm_up,
)
from pitch.fastcore.packing import pack_list, rules_of
from tests.fastcore.diffcheck import TABLES
from tests.support.playout import checked_playout as engine_playout


def positions(rules: Rules, rng: random.Random, count: int) -> list[GameState]:
    """States in the auction or the play, reached by random checked play."""
    out = []
    state = GameState(rules, dealer=rng.randrange(rules.players))
    while len(out) < count:
        if state.phase not in (BID, PLAY):
            state = GameState(rules, dealer=rng.randrange(rules.players))
            state.deal_random(rng)
            continue
        out.append(state.copy())
        state.apply(rng.choice(list(state.legal_actions())))
    return out


@pytest.mark.parametrize("rules", TABLES, ids=repr)
def test_pack_unpack_round_trip(rules: Rules) -> None:
    for s in positions(rules, random.Random(rules.players), 40):
        back = unpack(pack(s))
        assert pack_list(back) == pack_list(s)
        assert back.legal_mask() == s.legal_mask()
        assert back.view(s.current_player()).legal == s.legal_mask()


def test_pack_refuses_what_it_cannot_hold() -> None:
    s = GameState(Rules())
    s.apply_unchecked(5)  # one card of a card-by-card deal (R2.2)
    with pytest.raises(PitchError, match=r"R2\.2"):
        pack(s)
    with pytest.raises(PitchError, match="auction or the play"):
        random_playout(GameState(Rules()), 1)


@pytest.mark.parametrize("rules", TABLES, ids=repr)
def test_last_trick_agrees_with_the_engine(rules: Rules) -> None:
    """With one card left per seat the hand has one way to end: the kernel's
    playouts must score it as the engine does."""
    rng = random.Random(7)
    done = 0
    while done < 10:
        s = GameState(rules, dealer=rng.randrange(rules.players))
        s.deal_random(rng)
        while s.phase in (BID, PLAY) and len(s.tricks) < 5:
            s.apply(rng.choice(list(s.legal_actions())))
        if s.phase != PLAY:
            continue
        want = engine_playout(s, rng)
        assert random_playout(s, rng.randrange(1000)) == want
        assert playout_many(s, 3, 5) == tuple(5 * d for d in want)
        done += 1


def test_playouts_are_reproducible_and_leave_the_state_alone() -> None:
    s = positions(Rules(players=5), random.Random(3), 30)[-1]
    before = pack_list(s)
    assert random_playout(s, 11) == random_playout(s, 11)
    assert [int(x) for x in playout(s, 11, "heuristic")] == [
        int(x) for x in playout(s, 11, "heuristic")
    ]
    assert pack_list(s) == before
    totals = playout_many(s, 5, 200, "heuristic")
    assert len(totals) == 5
    assert all(-800 <= t <= 800 for t in totals)
    assert playout_many(s, 5, 0) == (0,) * 5


def test_random_hands_match_the_engine_on_average() -> None:
    """The kernel's random hands score like random hands in the engine (fixed seeds)."""
    rules = Rules(players=3)
    n = 6000
    rows = simulate_hands(rules, n, 5)
    kernel = [sum(int(r[i]) for r in rows) / n for i in range(3)]
    rng = random.Random(5)
    engine = [0.0] * 3
    for hand in range(n):
        s = GameState(rules, dealer=hand % 3)
        s.deal_random(rng)
        for i, d in enumerate(engine_playout(s, rng)):
            engine[i] += d / n
    for k, e in zip(kernel, engine, strict=True):
        assert abs(k - e) < 0.08, (kernel, engine)


def test_heuristic_beats_random() -> None:
    rows = simulate_hands(Rules(players=4), 4000, 9, policy_mask(["heuristic"] + ["random"] * 3))
    means = [sum(int(r[i]) for r in rows) / 4000 for i in range(4)]
    assert means[0] > max(means[1:]) + 0.3, means


def test_policy_mask() -> None:
    assert policy_mask("random") == 0
    assert policy_mask("heuristic") == layout.HEURISTIC
    assert policy_mask(["random", "heuristic"]) == 2
    with pytest.raises(PitchError, match="unknown playout policy"):
        policy_mask("clever")
    assert policy_mask("learned") == layout.LEARNED
    with pytest.raises(PitchError, match="two bits per seat"):
        policy_mask(layout.ALL_POLICIES + 1)
    with pytest.raises(PitchError, match="two bits per seat"):
        policy_mask(True)


def _detail_rows(seed: int) -> list[list[int]]:
    rows = simulate_hands(
        Rules(partnerships=True, low_to="holder"), 40, seed, "heuristic", detail=True
    )
    return [[int(x) for x in r] for r in rows]


def test_python_and_compiled_kernels_give_the_same_hands() -> None:
    """Same source, same seeds, same hands: with the compiler off (subprocess) and as
    built here (compiled when numba is on)."""
    code = (
        "import json; from tests.fastcore.test_api import _detail_rows as d; "
        "print(json.dumps(d(4)))"
    )
    env = {**os.environ, "PITCH_NO_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == _detail_rows(4)


def test_simulate_hands_shape() -> None:
    rows = simulate_hands(Rules(players=6), 25, 1)
    assert len(rows) == 25 and all(len(r) == 6 for r in rows)
    assert len(simulate_hands(Rules(), 0, 1)) == 0
    with pytest.raises(PitchError, match="0 or more"):
        simulate_hands(Rules(), -1)


def test_warm_up_reports_seconds() -> None:
    assert warm_up() >= 0.0


@pytest.mark.skipif(not COMPILED, reason="numba is not installed or is disabled")
def test_compiled_kernels_stay_integer() -> None:
    """Mixing numba's int64 and uint64 silently makes floats; no kernel may."""
    from pitch.fastcore import loops as kernels

    simulate_hands(Rules(), 2, 1)
    for fn in (kernels.finish, kernels.playout_many, kernels.simulate):
        for sig in fn.nopython_signatures:
            assert "float" not in str(sig), (fn, sig)


def test_threaded_batches_are_per_batch_seeds() -> None:
    rules = Rules(players=3)
    both = simulate_hands(rules, 10, 3, workers=2)
    first = simulate_hands(rules, 5, 3)
    second = simulate_hands(rules, 5, 4, dealer=5 % 3)
    assert [list(map(int, r)) for r in both] == [
        list(map(int, r)) for r in [*list(first), *list(second)]
    ]
    with pytest.raises(PitchError, match="workers"):
        simulate_hands(rules, 10, 3, workers=0)


def test_pure_python_path_needs_neither_numba_nor_numpy() -> None:
    code = (
        "import sys; import pitch.fastcore as f; from pitch.engine import Rules; "
        "rows = f.simulate_hands(Rules(players=5), 20, 1, 'heuristic'); "
        "assert not f.COMPILED and len(rows) == 20; "
        "print(sorted(m for m in ('numba', 'numpy') if m in sys.modules))"
    )
    env = {**os.environ, "PITCH_NO_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"


def test_bench_reports_the_compiled_core() -> None:
    from pitch.benchmarks import run_compiled

    res = run_compiled(Rules(), 20, 1, repeat=1)
    assert res["compiled"] is COMPILED
    assert res["compile_seconds"] >= 0
    if COMPILED:
        assert res["compiled_hands_per_s"] > 0
        assert res["compiled_hands_per_cpu_s"] > 0
        assert res["compiled_batched_hands_per_s"] > 0
        assert res["compiled_playouts_per_s"] > 0
        assert res["compiled_heuristic_playouts_per_s"] > 0
        assert res["compiled_learned_playouts_per_s"] > 0
        assert res["pimc_rollouts_per_s"] > 0
        assert res["ismcts_rollouts_per_s"] > 0


@pytest.mark.parametrize("rules", TABLES, ids=repr)
def test_position_list_is_the_start_of_pack_list(rules: Rules) -> None:
    from pitch.fastcore.packing import position_list

    for s in positions(rules, random.Random(8), 30):
        assert position_list(s) == pack_list(s)[: layout.POSITION_SIZE]


def test_warm_up_tells_the_player_when_it_takes_a_while() -> None:
    told: list[str] = []
    slow = threading.Event()

    def compiling() -> float:
        # Still "compiling" until the player has been told (or 30 s pass).
        return 2.0 if slow.wait(30) else 0.0

    def notice() -> None:
        told.append("wait")
        slow.set()

    assert fastcore.warm_up_noticed(notice, after=0.05, work=compiling) == 2.0
    assert told == ["wait"]
    told.clear()
    warm_up()  # compiled (or loaded) once in this process; the next is instant
    assert fastcore.warm_up_noticed(lambda: told.append("wait"), after=60.0) > 0
    assert told == []  # no notice when it finishes in time


def test_bid_masks_by_arithmetic_match_the_table() -> None:
    from pitch.fastcore.rules import BIDS_FROM, bids_from

    assert [bids_from.py_func(lo) for lo in range(6)] == list(BIDS_FROM)


def test_suit_of_is_floor_division_by_13_for_every_card() -> None:
    from pitch.fastcore.rules import suit_of

    assert [suit_of.py_func(c) for c in range(52)] == [c // 13 for c in range(52)]


def test_option_slots_follow_the_option_table() -> None:
    # The slots are derived from pitch.engine.rules.OPTIONS; today's options keep the
    # slots they had when they were numbered by hand (positions packed before agree).
    L = layout
    assert (L.N, L.SIDES, L.PARTNERS, L.LOW_HOLDER, L.STEAL, L.REDEAL) == (0, 1, 2, 3, 4, 5)
    assert (L.MIN_BID, L.TARGET, L.MUST_MAKE) == (6, 7, 8)
    assert layout.PHASE == layout.OPTIONS_END == len(OPTIONS) + 1
    assert layout.SIZE == layout.DECK + 52 and layout.POSITION_SIZE == layout.SCORES + 7
    r = Rules(partnerships=True, low_to="holder", dealer_may_steal=False, min_bid=2, target=11)
    w = pack_list(GameState(r))
    for opt in OPTIONS:
        assert w[layout.OPTION_SLOT[opt.key]] == opt.to_int(getattr(r, opt.key)), opt.key
    assert w[layout.SIDES] == 2 and rules_of(w) == r
