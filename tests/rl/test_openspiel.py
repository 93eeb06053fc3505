"""The OpenSpiel game passes OpenSpiel's random-simulation checks, and OpenSpiel's
ISMCTS runs on it with our resampler, also as a bot of our registry."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from pitch.bots import make_bot, play_game  # noqa: E402
from pitch.engine import Rules  # noqa: E402
from pitch.rl.openspiel_game import PitchState, load  # noqa: E402


@pytest.mark.parametrize(
    ("rules", "hands", "returns"),
    [
        (Rules(), 1, "score"),
        (Rules(players=2), 3, "win"),
        (Rules(partnerships=True, target=3), 2, "win"),
        (Rules(players=6, all_pass="redeal", min_bid=2, low_to="holder"), 1, "score"),
    ],
)
def test_random_sim_test(rules: Rules, hands: int, returns: str) -> None:
    game = load(rules, max_hands=hands, returns=returns)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_by_name_with_parameters() -> None:
    game = pyspiel.load_game("python_pitch(players=3,target=11)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 57
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(Exception, match=r"R1\.1"):
        pyspiel.load_game("python_pitch(players=9)")


def _deal(state: PitchState, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def test_information_state_hides_other_hands() -> None:
    game = load(Rules())
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(0))
    for p in range(4):
        other = state.resample(p, random.Random(p))
        assert other.engine.hands != state.engine.hands  # the hidden cards were redealt
        assert other.engine.hands[p] == state.engine.hands[p]
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    again = state.resample_from_infostate(1, sampler)
    assert again.information_state_string(1) == state.information_state_string(1)


def test_ismcts_plays_a_hand_with_our_resampler() -> None:
    game = load(Rules(players=3))
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 30, random_state=rs)
    py_rng = random.Random(3)
    bot.set_resampler(lambda s, p: s.resample(p, py_rng))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rs)
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert len(state.returns()) == 3


def test_registry_bot_plays_against_ours() -> None:
    rules = Rules(players=2, target=3)
    bots = [make_bot("openspiel-ismcts:simulations=20", rng=random.Random(1)), make_bot("random")]
    outcome = play_game(rules, bots, random.Random(2), max_hands=3)
    assert outcome.decisions[0] > 0
    with pytest.raises(ValueError, match="simulations"):
        make_bot("openspiel-ismcts:simulations=0")


def test_the_registry_loads_the_bot_only_on_demand() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from pitch.bots.registry import known_bots, make_bot; "
        "assert 'openspiel-ismcts' in known_bots(); "
        "assert 'pitch.rl' not in sys.modules; "
        "make_bot('openspiel-ismcts'); assert 'pitch.rl.openspiel_bot' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
