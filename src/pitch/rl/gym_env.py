"""A Gymnasium single-agent environment: one learning seat, our bots in the others.

>>> env = PitchGymEnv(players=2, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> sorted(obs), info["seat"]
(['action_mask', 'observation'], 0)
"""

from __future__ import annotations

import random
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from pitch.engine import NUM_ACTIONS, Rules
from pitch.rl.encoding import Encoding, action_mask
from pitch.rl.episode import Episode, Mode, Reward, Table, make_rules
from pitch.rl.opponents import make_opponents

OnIllegal = Literal["penalize", "raise"]


class PitchGymEnv(gym.Env[dict[str, Any], np.int64]):
    """Pitch for Gymnasium. The learner plays ``seat``; ``opponents`` (one bot spec,
    or one per other seat, e.g. ``"random"``, ``"heuristic"``, ``"ismcts:time=0.5"``;
    default ``heuristic`` when registered, else ``random``) play the other seats,
    seeing only their own views. Table options and episode/reward settings as in
    :class:`~pitch.rl.pettingzoo_env.PitchEnv`; the reward is the learner's.

    The action space is the engine's 57 ids; ``obs["action_mask"]`` marks the legal
    ones. An illegal action (``on_illegal="penalize"``, the default) changes nothing,
    pays ``illegal_reward`` and sets ``info["illegal"]``, so Gymnasium's checker and
    unmasked random sampling run; ``on_illegal="raise"`` raises the engine's
    ``IllegalActionError`` instead.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium's field

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        seat: int = 0,
        opponents: str | list[str] | None = None,
        mode: Mode = "game",
        max_hands: int | None = 100,
        reward: Reward = "score",
        on_illegal: OnIllegal = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **table_options: Any,
    ) -> None:
        self.rules = make_rules(rules, table_options)
        n = self.rules.players
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"R1.3: seat must be 0..{n - 1}, not {seat!r}")
        if on_illegal not in ("penalize", "raise"):
            raise ValueError(f"on_illegal must be 'penalize' or 'raise', not {on_illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.seat = seat
        self.opponent_specs = opponents
        self.others = [s for s in range(n) if s != seat]
        self.on_illegal = on_illegal
        self.illegal_reward = float(illegal_reward)
        self.episode = Episode(mode=mode, max_hands=max_hands, reward=reward)
        self.encoding = Encoding(self.rules)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.table = Table(self.rules, self.episode)
        self.bots = make_opponents(opponents, self.others, random.Random(0))  # bad specs fail now

    def _obs(self) -> dict[str, Any]:
        view = self.table.state.view(self.seat)
        return {"observation": self.encoding.encode(view), "action_mask": action_mask(view.legal)}

    def _info(self) -> dict[str, Any]:
        s = self.table.state
        return {"seat": self.seat, "hand": len(s.history), "scores": tuple(s.scores)}

    def _play_others(self) -> float:
        """Let the bots act until it is the learner's turn or the episode ends."""
        total = 0.0
        state = self.table.state
        while not self.table.done and state.current_player() != self.seat:
            seat = state.current_player()
            total += self.table.apply(self.bots[seat].act(state.view(seat)))[self.seat]
            state = self.table.state
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.bots = make_opponents(self.opponent_specs, self.others, rng)
        self.table.reset(rng)
        self._play_others()
        return self._obs(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.table.done:
            raise RuntimeError("the episode is over; call reset()")
        a = int(action)
        if not (0 <= a < NUM_ACTIONS and self.table.state.legal_mask() >> a & 1):
            if self.on_illegal == "raise":
                self.table.state.verify(a)
            info = self._info() | {"illegal": True}
            return self._obs(), self.illegal_reward, False, False, info
        reward = self.table.apply(a)[self.seat]
        reward += self._play_others()
        return self._obs(), reward, self.table.terminated, self.table.truncated, self._info()

    def render(self) -> str | None:
        return repr(self.table.state)
