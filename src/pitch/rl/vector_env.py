"""``PitchVectorEnv``: K independent games stepping together, numpy in and out, for
fast batched self-play. Each step takes one action per game, for whichever seat is
to act in it; finished games are reset at once (their last rewards are returned).

>>> import numpy as np
>>> venv = PitchVectorEnv(8, players=4, seed=0)
>>> obs, mask, seat = venv.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 540), (8, 57), (8,))
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
>>> obs, mask, seat, rewards, terminated, truncated = venv.step(actions)
>>> rewards.shape
(8, 4)

The work is behind a small :class:`VectorBackend` protocol. :class:`EngineBackend`
runs the pure-Python engine, one :class:`~pitch.rl.episode.Table` per game; a
compiled core (such as the numba ``pitch.fastcore`` being built) can be plugged in
with ``PitchVectorEnv(..., backend=its_backend)`` as long as it deals, applies and
encodes exactly as the engine does (the tests compare a backend with the engine).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pitch.engine import NUM_ACTIONS, IllegalActionError, Rules
from pitch.rl.encoding import Encoding
from pitch.rl.episode import Episode, Mode, Reward, Table, make_rules

Batch = npt.NDArray[Any]


class VectorBackend(Protocol):
    """K games. ``fill`` writes each game's current observation (of the seat to act),
    legal mask and seat into the given arrays."""

    num_envs: int

    def reset(self, rngs: list[random.Random]) -> None: ...

    def step(self, actions: Batch, rewards: Batch, terminated: Batch, truncated: Batch) -> None:
        """Apply ``actions[i]`` in game ``i``; write each seat's reward and whether
        game ``i`` ended (then start it again)."""

    def fill(self, obs: Batch, mask: Batch, seat: Batch) -> None: ...


class EngineBackend:
    """The reference backend: the rules engine, one game at a time."""

    def __init__(self, num_envs: int, rules: Rules, episode: Episode) -> None:
        self.num_envs = num_envs
        self.rules = rules
        self.encoding = Encoding(rules)
        self.tables = [Table(rules, episode) for _ in range(num_envs)]
        self.rngs: list[random.Random] = []

    def reset(self, rngs: list[random.Random]) -> None:
        self.rngs = rngs
        for table, rng in zip(self.tables, rngs, strict=True):
            table.reset(random.Random(rng.getrandbits(64)))

    def step(self, actions: Batch, rewards: Batch, terminated: Batch, truncated: Batch) -> None:
        for i, table in enumerate(self.tables):
            try:
                rewards[i] = table.apply(int(actions[i]))
            except IllegalActionError as e:
                raise IllegalActionError(
                    e.rule, e.seat, e.action, f"in game {i} of the batch: {e.reason}", e.legal
                ) from None
            terminated[i] = table.terminated
            truncated[i] = table.truncated
            if table.done:
                table.reset(random.Random(self.rngs[i].getrandbits(64)))

    def fill(self, obs: Batch, mask: Batch, seat: Batch) -> None:
        views = []
        for i, table in enumerate(self.tables):
            s = table.state
            p = s.current_player()
            views.append(s.view(p))
            seat[i] = p
        self.encoding.encode_batch(views, obs)
        legal = np.array([v.legal for v in views], dtype="<u8")
        mask[:] = np.unpackbits(legal.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[
            :, :NUM_ACTIONS
        ]


class PitchVectorEnv:
    """A batch of ``num_envs`` games with the same table options and episode settings
    as the other adapters (see :mod:`pitch.rl.episode`). Arrays: ``obs`` float32
    ``(K, size)`` for the seat to act, ``mask`` int8 ``(K, 57)``, ``seat`` int64
    ``(K,)``, ``rewards`` float32 ``(K, players)`` (every seat's reward this step),
    ``terminated``/``truncated`` bool ``(K,)``."""

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Rules | None = None,
        mode: Mode = "game",
        max_hands: int | None = 100,
        reward: Reward = "score",
        seed: int | None = None,
        backend: VectorBackend | None = None,
        **table_options: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.rules = make_rules(rules, table_options)
        self.episode = Episode(mode=mode, max_hands=max_hands, reward=reward)
        self.num_envs = num_envs
        self.encoding = Encoding(self.rules)
        self.backend: VectorBackend = backend or EngineBackend(num_envs, self.rules, self.episode)
        self._seed = seed
        k, n = num_envs, self.rules.players
        self.obs = np.zeros((k, self.encoding.size), np.float32)
        self.mask = np.zeros((k, NUM_ACTIONS), np.int8)
        self.seat = np.zeros(k, np.int64)
        self.rewards = np.zeros((k, n), np.float32)
        self.terminated = np.zeros(k, bool)
        self.truncated = np.zeros(k, bool)

    def reset(self, seed: int | None = None) -> tuple[Batch, Batch, Batch]:
        master = random.Random(self._seed if seed is None else seed)
        self.backend.reset([random.Random(master.getrandbits(64)) for _ in range(self.num_envs)])
        self.backend.fill(self.obs, self.mask, self.seat)
        return self.obs.copy(), self.mask.copy(), self.seat.copy()

    def step(self, actions: Batch) -> tuple[Batch, Batch, Batch, Batch, Batch, Batch]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"give one action per game: shape ({self.num_envs},), not {actions.shape}"
            )
        self.backend.step(actions, self.rewards, self.terminated, self.truncated)
        self.backend.fill(self.obs, self.mask, self.seat)
        return (
            self.obs.copy(),
            self.mask.copy(),
            self.seat.copy(),
            self.rewards.copy(),
            self.terminated.copy(),
            self.truncated.copy(),
        )


def random_actions(mask: Batch, rng: np.random.Generator) -> Batch:
    """A uniformly random legal action per row of ``mask`` (vectorised)."""
    noise = rng.random(mask.shape) * mask
    picks: Batch = np.argmax(noise, axis=1)
    return picks
