"""Speed measurements behind ``pitch bench``: what they print is what they measured."""

from __future__ import annotations

import random
import time
from typing import Any

from pitch.engine import DEAL, OVER, GameState, Rules
from pitch.engine.fast import random_playout


def _pick(mask: int, rand: Any) -> int:
    k = int(rand() * mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def checked_hands(rules: Rules, hands: int, seed: int) -> float:
    """Random full hands per second through the checked public API: deal, then
    ``legal_actions()`` and ``apply()`` for every bid and card."""
    rng = random.Random(seed)
    rand = rng.random
    state = GameState(rules)
    t0 = time.perf_counter()
    for _ in range(hands):
        if state.phase == OVER:
            state = GameState(rules)
        state.deal_random(rng)
        while state.phase != DEAL and state.phase != OVER:
            state.apply(_pick(state.legal_actions().mask, rand))
    return hands / (time.perf_counter() - t0)


def fast_hands(rules: Rules, hands: int, seed: int) -> float:
    """Random full hands per second through the search fast path: deal, then
    :func:`random_playout` of the whole hand on local ints."""
    rng = random.Random(seed)
    state = GameState(rules)
    t0 = time.perf_counter()
    for _ in range(hands):
        s = state.copy()
        s.deal_random(rng)
        random_playout(s, rng)
    return hands / (time.perf_counter() - t0)


def run(rules: Rules, hands: int, seed: int, repeat: int = 3) -> dict[str, Any]:
    """Best of ``repeat`` runs of each measure, on this process's one core."""
    checked = max(checked_hands(rules, hands, seed + i) for i in range(repeat))
    fast = max(fast_hands(rules, hands, seed + i) for i in range(repeat))
    return {
        "players": rules.players,
        "partnerships": rules.partnerships,
        "hands": hands,
        "repeat": repeat,
        "checked_hands_per_s": round(checked, 1),
        "fast_hands_per_s": round(fast, 1),
    }
