"""A PettingZoo AEC environment: one agent per seat, rules from the engine only.

>>> env = PitchEnv(players=3, target=11)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((421,), True)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pitch.engine import NUM_ACTIONS, Rules, action_str
from pitch.rl.encoding import Encoding, action_mask
from pitch.rl.episode import Episode, Mode, Reward, Table, make_rules


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class PitchEnv(AECEnv[str, dict[str, Any], int | None]):
    """Pitch for PettingZoo. Agents are ``player_0`` .. ``player_{n-1}`` (seat order).

    Every table option of :class:`~pitch.engine.Rules` is a keyword argument
    (``players``, ``partnerships``, ``target``, ``low_to``, ``dealer_may_steal``,
    ``all_pass``, ``min_bid``, ``must_make_bid_to_win``), or pass ``rules=Rules(...)``.
    Observations are ``{"observation": float32[Encoding.size], "action_mask":
    int8[57]}``; the mask is all zeros when it is not that agent's turn. Episodes and
    rewards: see :mod:`pitch.rl.episode`. An illegal action raises the engine's
    ``IllegalActionError`` (wrap with :func:`env` for PettingZoo's usual penalty).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "pitch_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        mode: Mode = "game",
        max_hands: int | None = 100,
        reward: Reward = "score",
        render_mode: str | None = None,
        **table_options: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, table_options)
        self.episode = Episode(mode=mode, max_hands=max_hands, reward=reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoding = Encoding(self.rules)
        n = self.rules.players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.table = Table(self.rules, self.episode)
        self._seed_rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.table.reset(random.Random(self._seed_rng.getrandbits(64)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.table.state.current_player())

    def observe(self, agent: str) -> dict[str, Any]:
        view = self.table.state.view(self._seat[agent])
        return {"observation": self.encoding.encode(view), "action_mask": action_mask(view.legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act and must give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.table.apply(int(action))
        self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
        if self.table.done:
            self.terminations = dict.fromkeys(self.agents, self.table.terminated)
            self.truncations = dict.fromkeys(self.agents, self.table.truncated)
            # Every agent sees its last reward; then each takes its dead step.
            self.agent_selection = agent
        else:
            self.agent_selection = agent_name(self.table.state.current_player())
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        s = self.table.state
        text = repr(s)
        if s.trick:
            text += " trick: " + " ".join(action_str(c) for c in s.trick)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int | None]:
    """:class:`PitchEnv` with PettingZoo's standard checks: an illegal action ends
    the game with a penalty for the offender, out-of-bounds actions raise."""
    e: AECEnv[str, dict[str, Any], int | None] = PitchEnv(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
