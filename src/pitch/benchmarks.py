"""Speed measurements behind ``pitch bench``: what they print is what they measured."""

from __future__ import annotations

import random
import time
from typing import Any

from pitch.engine import DEAL, OVER, GameState, Rules
from pitch.engine.fast import random_playout


def checked_hands(rules: Rules, hands: int, seed: int) -> float:
    """Random full hands per second through the checked public API: ``deal_random``,
    then ``legal_mask()`` and the checked ``apply()`` for every bid and card."""
    rng = random.Random(seed)
    rand = rng.random
    state = GameState(rules)
    t0 = time.perf_counter()
    for _ in range(hands):
        if state.phase == OVER:
            state = GameState(rules)
        state.deal_random(rng)
        apply = state.apply
        legal_mask = state.legal_mask
        while True:
            phase = state.phase
            if phase in (DEAL, OVER):
                break
            # A uniform choice among the legal actions: the k-th lowest set bit.
            mask = legal_mask()
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            apply((mask & -mask).bit_length() - 1)
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
