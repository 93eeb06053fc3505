"""What an episode is and what it pays, shared by the PettingZoo, Gymnasium and
vectorised environments. The rules stay in the engine: a :class:`Table` holds a
:class:`~pitch.engine.GameState`, deals with a seeded ``random.Random`` and only
calls ``apply``/``deal_random``.

* ``mode="game"`` (default): an episode is a whole game, until a side reaches the
  target (R6.2, *terminated*) or ``max_hands`` hands were played (*truncated*).
* ``mode="hand"``: an episode is one hand (*terminated* when it is scored; a hand
  thrown in because everyone passed under ``all_pass="redeal"`` ends it with 0).
* ``reward="score"`` (default): when a hand is scored every seat gets its side's
  score change (R5.6/R5.7: points won, or minus the bid when set back).
  ``reward="win"``: +1 to each seat of the winning side and -1 to every other seat
  when the game ends; 0 otherwise (and 0 for a truncated game).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Any, Literal

from pitch.engine import GameState, Rules

Mode = Literal["game", "hand"]
Reward = Literal["score", "win"]

RULE_OPTIONS = tuple(f.name for f in fields(Rules))
"""Every table option, accepted as a keyword argument by the environments."""


@dataclass(frozen=True, kw_only=True)
class Episode:
    mode: Mode = "game"
    max_hands: int | None = 100
    """Truncate a game after this many hands (``None``: no cap; random players can
    drift far below zero and play for a long time)."""
    reward: Reward = "score"

    def __post_init__(self) -> None:
        if self.mode not in ("game", "hand"):
            raise ValueError(f"mode must be 'game' or 'hand', not {self.mode!r}")
        if self.reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', not {self.reward!r}")
        if self.max_hands is not None and (
            not isinstance(self.max_hands, int) or self.max_hands < 1
        ):
            raise ValueError(f"max_hands must be a positive whole number, not {self.max_hands!r}")


def make_rules(rules: Rules | None, options: dict[str, Any]) -> Rules:
    """``Rules`` from a ``Rules`` object or from table options (not both)."""
    unknown = sorted(set(options) - set(RULE_OPTIONS))
    if unknown:
        raise TypeError(f"unknown table option(s) {unknown}; table options: {list(RULE_OPTIONS)}")
    if rules is not None:
        if options:
            raise TypeError("give either rules=Rules(...) or table options, not both")
        return rules
    return Rules(**options)


class Table:
    """One running episode: the engine state, its dealer's ``rng`` and the outcome."""

    def __init__(self, rules: Rules, episode: Episode) -> None:
        self.rules = rules
        self.episode = episode
        self.rng = random.Random()
        self.state = GameState(rules)
        self.terminated = False
        self.truncated = False

    def reset(self, rng: random.Random) -> None:
        self.rng = rng
        self.state = GameState.new_game(self.rules, rng)
        self.state.deal_random(rng)
        self.terminated = self.truncated = False

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def apply(self, action: int) -> list[float]:
        """Apply a legal action (the engine checks it) and return each seat's reward.
        Deals the next hand when one ends and the episode goes on."""
        state = self.state
        hands = len(state.history)
        state.apply(action)
        rewards = [0.0] * self.rules.players
        if len(state.history) == hands:
            return rewards
        side_of = self.rules.side_of
        result = state.history[-1].result
        if self.episode.reward == "score" and result is not None:
            for seat in range(self.rules.players):
                rewards[seat] = float(result.delta[side_of(seat)])
        if state.is_terminal():
            self.terminated = True
            if self.episode.reward == "win":
                for seat in range(self.rules.players):
                    rewards[seat] = 1.0 if side_of(seat) == state.winner else -1.0
        elif self.episode.mode == "hand":
            self.terminated = True
        elif self.episode.max_hands is not None and len(state.history) >= self.episode.max_hands:
            self.truncated = True
        else:
            state.deal_random(self.rng)
        return rewards
