"""The PettingZoo AEC environment passes PettingZoo's own conformance tests."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from pitch.engine import IllegalActionError, Rules
from pitch.rl.pettingzoo_env import PitchEnv, env

# api_test suggests Box observations; ours is the usual {observation, action_mask} dict.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent", "ignore:Observation is not a NumPy array"
)


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 2}, {"partnerships": True, "target": 11}, {"players": 5, "mode": "hand"}],
)
def test_api_test(options: dict[str, object]) -> None:
    api_test(PitchEnv(**options), num_cycles=300)


def test_api_test_wrapped() -> None:
    api_test(env(players=3), num_cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: PitchEnv(players=4, max_hands=3), num_cycles=200)


def _play_out(e: PitchEnv, seed: int) -> tuple[dict[str, float], int]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += float(reward)
        if term or trunc:
            e.step(None)
            continue
        # Only the agent to act has a non-empty mask; everyone else's is zero.
        for other in e.agents:
            mask = e.observe(other)["action_mask"]
            assert (mask.sum() > 0) == (other == agent)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return totals, steps


def test_score_rewards_add_up_to_the_final_scores() -> None:
    e = PitchEnv(players=3, max_hands=None)
    totals, _ = _play_out(e, 5)
    state = e.table.state
    assert state.is_terminal()
    assert [totals[f"player_{s}"] for s in range(3)] == [float(x) for x in state.scores]


def test_win_rewards_and_partners_share() -> None:
    e = PitchEnv(partnerships=True, target=1, reward="win", max_hands=None)
    totals, _ = _play_out(e, 9)
    w = e.table.state.winner
    assert w is not None
    assert totals == {f"player_{s}": (1.0 if s % 2 == w else -1.0) for s in range(4)}


def test_hand_mode_is_one_hand_and_truncation_caps_hands() -> None:
    e = PitchEnv(players=4, mode="hand")
    _play_out(e, 2)
    assert len(e.table.state.history) == 1 and e.table.terminated
    e = PitchEnv(players=4, max_hands=2, target=21)
    _play_out(e, 2)
    assert len(e.table.state.history) == 2 and e.table.truncated


def test_observation_has_no_hidden_cards() -> None:
    e = PitchEnv(players=4)
    e.reset(seed=1)
    state = e.table.state
    for seat in range(4):
        obs = e.observe(f"player_{seat}")["observation"]
        hand = np.flatnonzero(obs[e.encoding.segments["hand"]])
        assert sum(1 << int(c) for c in hand) == state.hands[seat]


def test_illegal_and_bad_options() -> None:
    e = PitchEnv(players=4)
    e.reset(seed=1)
    bad = next(a for a in range(57) if not e.table.state.legal_mask() >> a & 1)
    with pytest.raises(IllegalActionError):
        e.step(bad)
    with pytest.raises(TypeError, match="unknown table option"):
        PitchEnv(players=4, trumps=True)
    with pytest.raises(TypeError, match="not both"):
        PitchEnv(rules=Rules(), players=3)
    with pytest.raises(ValueError, match=r"R1\.1"):
        PitchEnv(players=9)
