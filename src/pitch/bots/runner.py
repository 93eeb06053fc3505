"""Play whole games between bots, each shown only its own seat's view."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pitch.bots.base import Bot
from pitch.engine import GameState, Rules


@dataclass
class GameOutcome:
    state: GameState
    decisions: list[int]
    """Decisions made per seat."""
    think_seconds: list[float]
    """Seconds each seat spent choosing."""

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    deal_rng: random.Random | None,
    *,
    dealer: int | None = None,
    max_hands: int | None = None,
) -> GameOutcome:
    """Play one game. ``deal_rng`` shuffles (``None``: ``secrets``-grade); the first
    dealer is drawn from it too unless given. Stops unfinished after ``max_hands``."""
    if len(bots) != rules.players:
        raise ValueError(f"need {rules.players} bots, one per seat, not {len(bots)}")
    if dealer is None:
        state = GameState.new_game(rules, deal_rng)
    else:
        state = GameState(rules, dealer=dealer)
    decisions = [0] * rules.players
    think = [0.0] * rules.players
    clock = time.perf_counter
    while not state.is_terminal():
        if state.is_chance_node():
            if max_hands is not None and len(state.history) >= max_hands:
                break
            state.deal_random(deal_rng)
            continue
        seat = state.current_player()
        t0 = clock()
        action = bots[seat].act(state.view(seat))
        think[seat] += clock() - t0
        decisions[seat] += 1
        state.apply(action)
    for seat, bot in enumerate(bots):
        bot.game_over(state.view(seat))
    return GameOutcome(state, decisions, think)
