"""The kernel heuristic is the readable oracle's: the same action on every position.

Random tables (2-7 players, partnerships, every house rule, targets 1-30, must-make
on and off), random scores near, below and past the target, every step of the
auction and the play. Compiled, and with the compiler off in a subprocess.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

from pitch.fastcore import COMPILED
from pitch.fastcore import layout as L
from pitch.fastcore import policy as kernel_policy
from pitch.fastcore._jit import new_array
from pitch.fastcore.packing import position_list
from pitch.fastcore.policy import heuristic_action
from pitch.fastcore.search import card_worth, hand_estimate, view_action
from pitch.fastcore.search import heuristic_action as search_action
from tests.fastcore.policycheck import (
    JUNK,
    compare_actions,
    compare_rollouts,
    reshuffle_others,
    states,
)
from tests.support import policy_oracle as python_policy
from tests.support.policy_oracle import state_action


def test_power_tables_are_the_python_policy_powers() -> None:
    # Same values bit for bit: the kernel looks up what the oracle computes.
    for n in range(2, 8):
        q = 1.0 - python_policy.p_elsewhere(n)
        assert kernel_policy.P_ELSEWHERE[n] == python_policy.p_elsewhere(n)
        for e in range(13):
            assert kernel_policy.Q_POW[13 * n + e] == q**e
    for k in range(14):
        assert kernel_policy.POW55[k] == 0.55**k
    assert kernel_policy.GAME_UNIT == python_policy.GAME_UNIT


def test_kernel_actions_are_state_action() -> None:
    assert compare_actions(1, 30000 if COMPILED else 10000) > 0


def test_kernel_actions_are_state_action_in_python() -> None:
    if not COMPILED:
        assert compare_actions(2, 10000) > 0
        return
    env = {**os.environ, "PITCH_NO_JIT": "1"}
    code = (
        "from tests.fastcore.policycheck import compare_actions; print(compare_actions(2, 10000))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.split()[-1]) == 10000


def test_kernel_rollouts_are_the_python_rollouts() -> None:
    assert compare_rollouts(3, 400) > 0


def test_the_policy_does_not_look_at_other_hands() -> None:
    rng = random.Random(4)
    for s in states(5, 1500):
        w = position_list(s) + [JUNK] * (L.SIZE - L.POSITION_SIZE)
        legal = s.legal_mask()
        want = heuristic_action(new_array(w), legal)
        for _ in range(2):
            assert heuristic_action(new_array(reshuffle_others(w, rng)), legal) == want


def test_the_search_hook_gives_the_same_action() -> None:
    for s in states(6, 300):
        assert search_action(s) == state_action(s)


def test_the_heuristic_bot_acts_on_the_view_as_the_oracle_on_the_state() -> None:
    # view_action packs the view without the other hands' unplayed cards: the move,
    # and the hints' estimates, must be the oracle's on the true state.
    for s in states(7, 800):
        view = s.view(s.to_act)
        assert view_action(view) == state_action(s)
        rules = s.rules
        want = python_policy.best_suit(view.hand, rules.players, rules.partnerships)
        assert hand_estimate(view.hand, rules.players, rules.partnerships) == want
        if s.trump >= 0:
            for c in range(52):
                if view.hand >> c & 1:
                    got = card_worth(c, s.trump, view.unseen, view.played)
                    assert got == python_policy.card_value(c, s.trump, view.unseen, view.played)
