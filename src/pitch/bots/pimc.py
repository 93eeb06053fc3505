"""``pimc`` (master level): Perfect Information Monte Carlo (determinization).

For each sample, deal the cards this seat cannot see (consistently with the
cards played, the voids shown and the auction, see :mod:`pitch.bots.sampling`),
then score every legal action by playing the rest of the hand with the
rollout policy (the heuristic for every seat by default; deterministic, so each
action is compared on the same deals). Choose the action with the best mean.
Bids are chosen the same way: the rest of the auction and the play follow the
rollout policy.

The value of a hand for a seat is its side's score change minus the mean change
of the other sides (R5.6/R5.7), plus a bonus for going out (R6.2) and a
penalty for letting another side out, so bids near the target count the game.

Budget: ``samples`` determinizations per decision and/or ``time`` seconds
(whichever ends first; at least one sample is always taken).
"""

from __future__ import annotations

import random
import time as _time
from collections.abc import Callable, Sequence
from typing import ClassVar

from pitch import fastcore
from pitch.bots.base import Bot
from pitch.bots.heuristic import hand_outcome, heuristic_rollout, random_rollout
from pitch.bots.sampling import sample_state
from pitch.engine import PlayerView, Rules
from pitch.engine.state import GameState
from pitch.fastcore import search as fast_search

Rollout = Callable[[GameState, random.Random], tuple[tuple[int, ...], int]]
ROLLOUTS: dict[str, Rollout] = {"heuristic": heuristic_rollout, "random": random_rollout}
if fastcore.COMPILED:
    # The compiled core's rollouts (docs/fastcore.md): 15-30x faster per rollout, but
    # its heuristic is simpler than pitch.bots.policy, so it is not the default.
    ROLLOUTS["fast"] = fast_search.heuristic_rollout
    ROLLOUTS["fast-random"] = fast_search.random_rollout

WIN_BONUS = 6.0
"""Points a game win is worth, against the points of one hand."""


def hand_value(
    rules: Rules, scores: Sequence[int], delta: tuple[int, ...], pitcher: int, side: int
) -> float:
    """A side's payoff for a finished hand: its score change relative to the mean of
    the other sides, plus :data:`WIN_BONUS` when the hand takes it out (R6.2), minus
    it when the hand takes another side out. ``scores`` are those before the hand."""
    n = len(delta)
    v = delta[side] - (sum(delta) - delta[side]) / (n - 1)
    if pitcher >= 0:
        pside = rules.side_of(pitcher)
        if scores[pside] + delta[pside] >= rules.target and (
            delta[pside] > 0 or not rules.must_make_bid_to_win
        ):
            v += WIN_BONUS if pside == side else -WIN_BONUS
    return v


def action_outcome(
    state: GameState, action: int, rollout: Rollout, rng: random.Random
) -> tuple[tuple[int, ...], int]:
    """Score change per side and pitcher after ``action`` and the rest of the hand."""
    s = state.copy()
    before = len(s.history)
    s.apply_unchecked(action)
    if len(s.history) > before:
        return hand_outcome(s)
    return rollout(s, rng)


class PimcBot(Bot):
    """Determinization search (see the module docstring)."""

    name: ClassVar[str] = "pimc"
    level: ClassVar[str] = "master"

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        samples: int = 60,
        time: float | None = 1.0,
        rollout: str = "heuristic",
        tries: int = 6,
    ) -> None:
        super().__init__(rng=rng)
        if int(samples) < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if time is not None and float(time) <= 0:
            raise ValueError(f"time must be positive seconds, not {time}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.samples = int(samples)
        self.time = float(time) if time is not None else None
        self.rollout = ROLLOUTS[rollout]
        self.tries = int(tries)

    def act(self, view: PlayerView) -> int:
        legal = list(view.legal_actions())
        if len(legal) == 1:
            return legal[0]
        deadline = None if self.time is None else _time.perf_counter() + self.time
        side = view.side
        totals = [0.0] * len(legal)
        done = 0
        while done < self.samples:
            st = sample_state(view, self.rng, self.tries)
            for i, a in enumerate(legal):
                delta, pitcher = action_outcome(st, a, self.rollout, self.rng)
                totals[i] += hand_value(view.rules, view.scores, delta, pitcher, side)
            done += 1
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        best = max(range(len(legal)), key=lambda i: (totals[i], -legal[i]))
        return legal[best]
