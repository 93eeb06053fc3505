"""``openspiel-ismcts``: OpenSpiel's own ISMCTS bot playing in our arena.

It searches the ``python_pitch`` game of the current hand (``max_hands=1``, returns
= the hand's score change) from a determinization of the seat's view, and samples
worlds with the engine's :func:`~pitch.engine.resample` (which respects shown voids).
The bot registry finds it through the ``pitch.bots`` entry point in
``pyproject.toml``, so ``make_bot("openspiel-ismcts")`` and ``pitch arena
openspiel-ismcts heuristic`` import this module only when asked for it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from pitch.bots.base import Bot
from pitch.engine import PlayerView, Rules, resample
from pitch.rl.openspiel_game import PitchState, load

_GAMES: dict[Rules, Any] = {}


def _game(rules: Rules) -> Any:
    if rules not in _GAMES:
        _GAMES[rules] = load(rules, max_hands=1)
    return _GAMES[rules]


class OpenSpielISMCTSBot(Bot):
    """OpenSpiel's ``ISMCTSBot`` with random-rollout evaluation.

    Options: ``simulations`` (per decision, default 200), ``uct_c`` (2.0),
    ``rollouts`` (per leaf, 1), ``worlds`` (cap on sampled worlds, -1: unlimited).
    """

    name: ClassVar[str] = "openspiel-ismcts"
    level: ClassVar[str] = ""

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        simulations: int = 200,
        uct_c: float = 2.0,
        rollouts: int = 1,
        worlds: int = -1,
    ) -> None:
        super().__init__(rng=rng)
        for key, value in (("simulations", simulations), ("rollouts", rollouts)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a positive whole number, not {value!r}")
        self.simulations = simulations
        self.uct_c = float(uct_c)
        self.rollouts = rollouts
        self.worlds = worlds

    def _resampler(self, state: PitchState, player: int) -> PitchState:
        return state.resample(player, self.rng)

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1  # one legal action: nothing to search
        game = _game(view.rules)
        root = PitchState(game, resample(view, self.rng))
        np_rng = np.random.RandomState(self.rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(self.rollouts, np_rng),
            self.uct_c,
            self.simulations,
            max_world_samples=self.worlds,
            random_state=np_rng,
        )
        bot.set_resampler(self._resampler)
        return int(bot.step(root))

    def describe(self) -> str:
        return f"{self.name}:simulations={self.simulations}"
