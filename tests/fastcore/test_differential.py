"""The kernels against the checked engine (R2-R5), in every table the tests know.

``stepwise`` runs the kernels' Python source one action at a time and compares the
whole position after each; ``traced`` runs them as they are built (compiled when
numba is on) and replays the hand through the engine. With numba on, the stepwise
check runs in a subprocess with the compiler off (``PITCH_NO_JIT=1``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pitch.engine import Rules
from pitch.fastcore import COMPILED
from tests.fastcore.diffcheck import POLICIES, TABLES, stepwise, traced

SEEDS = 60


def stepwise_all() -> int:
    steps = 0
    for rules in TABLES:
        played = sum(stepwise(rules, seed, POLICIES[seed % 3]) for seed in range(SEEDS))
        assert played > SEEDS * rules.players  # most hands were played, not thrown in
        steps += played
    return steps


def test_stepwise_matches_engine() -> None:
    if not COMPILED:
        assert stepwise_all() > 0
        return
    env = {**os.environ, "PITCH_NO_JIT": "1"}
    code = "from tests.fastcore.test_differential import stepwise_all; print(stepwise_all())"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.split()[-1]) > 0


@pytest.mark.parametrize("rules", TABLES, ids=repr)
def test_kernel_trace_matches_engine(rules: Rules) -> None:
    for seed in range(150):
        traced(rules, seed, POLICIES[seed % 3])
