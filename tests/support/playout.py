"""A uniformly random playout through the engine's checked API: what the kernels'
random playouts are measured against (the same rules, not the same random stream)."""

from __future__ import annotations

import random

from pitch.engine import GameState


def checked_playout(state: GameState, rng: random.Random) -> tuple[int, ...]:
    """Finish ``state``'s hand (not modified) with uniformly random legal actions,
    each checked by ``apply``; each side's score change (zeros when thrown in)."""
    s = state.copy()
    hands = len(s.history)
    while len(s.history) == hands:
        s.apply(rng.choice(list(s.legal_actions())))
    result = s.history[-1].result
    return (0,) * s.num_sides if result is None else result.delta
