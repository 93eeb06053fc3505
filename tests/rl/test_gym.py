"""The Gymnasium single-agent environment passes Gymnasium's environment checker."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from pitch.engine import IllegalActionError
from pitch.rl.gym_env import PitchGymEnv


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 3, "seat": 2, "mode": "hand"}, {"partnerships": True, "reward": "win"}],
)
def test_check_env(options: dict[str, object]) -> None:
    check_env(PitchGymEnv(**options), skip_render_check=True)


def _episode(env: PitchGymEnv, seed: int) -> tuple[float, bool, bool]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        assert "illegal" not in info
        total += float(reward)
        if term or trunc:
            return total, term, trunc


def test_rewards_are_the_learners_side_score() -> None:
    env = PitchGymEnv(players=3, seat=1, opponents="random", max_hands=None, target=5)
    total, term, _ = _episode(env, 4)
    assert term and total == env.table.state.scores[1]


def test_same_seed_same_episode() -> None:
    a = PitchGymEnv(players=4, opponents=["random", "random", "random"], max_hands=3)
    b = PitchGymEnv(players=4, opponents="random", max_hands=3)
    assert _episode(a, 11) == _episode(b, 11)
    assert a.table.state.history == b.table.state.history


def test_illegal_actions_penalize_or_raise() -> None:
    env = PitchGymEnv(players=2, opponents="random")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.table.state.legal_mask()
    _, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc, info["illegal"]) == (-1.0, False, False, True)
    assert env.table.state.legal_mask() == before
    env = PitchGymEnv(players=2, opponents="random", on_illegal="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(bad)


def test_bad_arguments_are_clear() -> None:
    with pytest.raises(ValueError, match="seat"):
        PitchGymEnv(players=3, seat=3)
    with pytest.raises(ValueError, match="unknown bot"):
        PitchGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="one per other seat"):
        PitchGymEnv(players=4, opponents=["random", "random"])
