"""Pitch for game-AI research: PettingZoo, Gymnasium and OpenSpiel adapters and a
batched numpy environment (``pip install pitch[rl]``). See ``docs/rl.md``.

Every adapter holds an engine :class:`~pitch.engine.GameState` and writes no rule of
its own; observations come from ``state.view(seat)`` only. The framework modules are
imported on demand, so ``import pitch.rl`` needs only numpy:

* :mod:`pitch.rl.pettingzoo_env` -- ``PitchEnv`` (AEC) and ``env()``;
* :mod:`pitch.rl.gym_env` -- ``PitchGymEnv`` (one learner, our bots elsewhere);
* :mod:`pitch.rl.openspiel_game` -- ``python_pitch``, registered with ``pyspiel``;
* :mod:`pitch.rl.openspiel_bot` -- the ``openspiel-ismcts`` bot;
* :mod:`pitch.rl.vector_env` -- ``PitchVectorEnv``, K games stepping together.
"""

from pitch.rl.encoding import Encoding, action_mask, mask_bits
from pitch.rl.episode import Episode, Table

__all__ = ["Encoding", "Episode", "Table", "action_mask", "mask_bits"]
