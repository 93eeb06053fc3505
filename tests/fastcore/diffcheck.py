"""Differential checks of the fastcore kernels against the checked engine.

Plain functions (no pytest) so that the same checks also run in a subprocess with
the compiler disabled (``test_pure_python.py``).
"""

from __future__ import annotations

from typing import Any

from pitch.engine import GameState, Rules
from pitch.fastcore import layout as L
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.loops import LOG_SIZE, finish, new_hand
from pitch.fastcore.packing import pack_list, table
from pitch.fastcore.rules import apply, deal, legal_mask, score

TABLES = [Rules(players=n) for n in range(2, 8)] + [
    Rules(partnerships=True),
    Rules(players=4, low_to="holder"),
    Rules(players=3, dealer_may_steal=False),
    Rules(players=5, all_pass="redeal", min_bid=2),
    Rules(partnerships=True, low_to="holder", dealer_may_steal=False, all_pass="redeal"),
]
POLICIES = (L.RANDOM, L.HEURISTIC, 0b0101)


def position(w: Any) -> list[int]:
    """The fields of a packed position that define it (not the logs or the deck)."""
    return [int(x) for x in w[: L.POSITION_SIZE]]


def check_result(w: Any, out: Any, state: GameState) -> None:
    """The kernel's scored hand ``out`` equals the engine's last HandRecord."""
    rec = state.history[-1]
    res = rec.result
    sides = state.num_sides
    if res is None:
        assert out[L.R_THROWN] == 1, "kernel played a hand the engine threw in"
        assert all(out[L.R_DELTA + i] == 0 for i in range(sides))
        return
    assert out[L.R_THROWN] == 0
    none = -1

    def side(x: int | None) -> int:
        return none if x is None else x

    got = {
        "delta": tuple(int(out[L.R_DELTA + i]) for i in range(sides)),
        "won": tuple(int(out[L.R_WON + i]) for i in range(sides)),
        "counts": tuple(int(out[L.R_COUNTS + i]) for i in range(sides)),
        "awards": tuple(int(out[i]) for i in (L.R_HIGH, L.R_LOW, L.R_JACK, L.R_GAME)),
        "cards": tuple(int(out[i]) for i in (L.R_HIGH_CARD, L.R_LOW_CARD, L.R_JACK_CARD)),
        "made": bool(out[L.R_MADE]),
    }
    want = {
        "delta": res.delta,
        "won": res.won,
        "counts": res.game_counts,
        "awards": tuple(side(res.awards[k]) for k in ("high", "low", "jack", "game")),
        "cards": tuple(side(c) for c in (res.high_card, res.low_card, res.jack_card)),
        "made": res.made,
    }
    assert got == want, (got, want)


def stepwise(rules: Rules, seed: int, policy: int) -> int:
    """Deal with the kernel, then play one action at a time with the kernel's policy
    on both the kernel position and the checked engine: the whole position, the legal
    mask and every trick winner must agree. Runs the kernels' Python source
    (``py_func``), so it checks the rules as written. Returns the actions taken."""
    from pitch.fastcore.policy import choose

    k_deal, k_legal, k_apply, k_score, k_choose = (
        f.py_func for f in (deal, legal_mask, apply, score, choose)
    )
    dealer = seed % rules.players
    w = table(rules, dealer)
    s = k_deal(w, seed64(seed))
    state = GameState(rules, dealer=dealer)
    state.deal([int(x) for x in w[L.HANDS : L.HANDS + rules.players]])
    assert position(pack_list(state)) == position(w)
    steps = 0
    while w[L.PHASE] in (L.BID, L.PLAY):
        legal = k_legal(w)
        assert legal == state.legal_mask(), (steps, legal, state.legal_mask())
        a, s = k_choose(w, legal, policy, s)
        assert legal >> a & 1
        tricks = len(state.tricks)
        state.apply(a)
        k_apply(w, a)
        steps += 1
        if w[L.PHASE] in (L.BID, L.PLAY):
            assert position(pack_list(state)) == position(w), steps
            if len(state.tricks) != tricks:
                assert state.tricks[-1].winner == w[L.LEADER]
    out = [0] * L.R_SIZE
    k_score(w, out, 0)
    if w[L.PHASE] == L.HAND_DONE:
        assert [t.winner for t in state.history[-1].tricks][-1] == w[L.LEADER]
    check_result(w, out, state)
    return steps


def traced(rules: Rules, seed: int, policy: int) -> None:
    """The same check through the kernels as they run (compiled when numba is on):
    a whole hand by :func:`finish` with a log, then replayed through the checked engine."""
    dealer = (seed // 7) % rules.players
    w = new_array(table(rules, dealer))
    s = seed64(int(new_hand(w, seed64(seed))))  # numba hands a uint64 back as a Python int
    hands = [int(x) for x in w[L.HANDS : L.HANDS + rules.players]]
    log = new_array([-1] * LOG_SIZE)
    out = new_array([0] * L.R_SIZE)
    finish(w, policy, s, out, 0, log)
    masks = log[:49]
    winners = log[49:]
    k = int(w[L.NBIDS] + w[L.NPLAYED])
    actions = [52 + int(b) for b in w[L.BIDS : L.BIDS + int(w[L.NBIDS])]]
    actions += [int(c) for c in w[L.PLAYED : L.PLAYED + int(w[L.NPLAYED])]]
    assert int(masks[k - 1]) >= 0 and (k == 49 or int(masks[k]) == -1)  # k actions logged
    state = GameState(rules, dealer=dealer)
    state.deal(hands)
    for i, a in enumerate(actions):
        assert state.legal_mask() == masks[i], (i, actions)
        state.apply(a)
    if out[L.R_THROWN] == 0:
        assert [t.winner for t in state.history[-1].tricks] == [int(x) for x in winners]
    else:
        assert k <= rules.players
    check_result(w, out, state)


def in_pure_python(module: str, function: str) -> Any:
    """``module.function()`` run in a subprocess with the compiler off
    (``PITCH_NO_JIT=1``): its JSON result, to compare with the compiled run's."""
    import json
    import os
    import subprocess
    import sys

    code = f"import json; from {module} import {function} as f; print(json.dumps(f()))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PITCH_NO_JIT": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)
