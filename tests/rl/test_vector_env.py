"""The batched environment steps K engine games together and agrees with the engine."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numpy")

from pitch.engine import IllegalActionError, Rules
from pitch.rl.vector_env import PitchVectorEnv, random_actions


def test_batch_matches_each_engine_game_and_resets() -> None:
    venv = PitchVectorEnv(6, players=3, target=3, seed=1)
    obs, mask, seat = venv.reset()
    rng = np.random.default_rng(1)
    totals = np.zeros((6, 3))
    finished = 0
    for _ in range(400):
        tables = venv.backend.tables
        for i, t in enumerate(tables):
            s = t.state
            assert seat[i] == s.current_player()
            assert sum(1 << int(a) for a in np.flatnonzero(mask[i])) == s.legal_mask()
            np.testing.assert_array_equal(obs[i], venv.encoding.encode(s.view(int(seat[i]))))
        scores = [list(t.state.scores) for t in tables]
        actions = random_actions(mask, rng)
        obs, mask, seat, rewards, term, trunc = venv.step(actions)
        totals += rewards
        for i in np.flatnonzero(term | trunc):
            # The game that ended paid out exactly its final score change.
            assert totals[i].tolist() == pytest.approx(
                [scores[i][s] + rewards[i][s] for s in range(3)]
            )
            totals[i] = 0
            finished += 1
    assert finished > 0


def test_same_seed_same_batch() -> None:
    def run() -> list[float]:
        venv = PitchVectorEnv(4, rules=Rules(partnerships=True), seed=7, mode="hand")
        _, mask, _ = venv.reset()
        rng = np.random.default_rng(7)
        out = []
        for _ in range(60):
            _, mask, _, rewards, _, _ = venv.step(random_actions(mask, rng))
            out.extend(rewards.ravel().tolist())
        return out

    assert run() == run()


def test_bad_actions_name_the_game() -> None:
    venv = PitchVectorEnv(3, players=2, seed=0)
    _, mask, _ = venv.reset()
    actions = random_actions(mask, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(actions)
    with pytest.raises(ValueError, match="one action per game"):
        venv.step(np.zeros(2, dtype=int))
    with pytest.raises(ValueError, match="num_envs"):
        PitchVectorEnv(0)
