"""The hooks the search bots call: rollouts with the bots' ``Rollout`` shape.

A search bot (``pimc``, ``ismcts``) finishes hands with a function
``rollout(state, rng) -> (score change per side, pitcher seat or -1)``; these are
drop-in compiled ones. :func:`evaluate_actions` does one determinization's whole
PIMC step (every legal action, then the rest of the hand) in one call, so the
position is packed once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pitch.engine import GameState
from pitch.engine.errors import PitchError
from pitch.fastcore import layout
from pitch.fastcore._jit import COMPILED, new_array, seed64
from pitch.fastcore.loops import evaluate, finish
from pitch.fastcore.packing import position_list
from pitch.fastcore.policy import heuristic_action as _heuristic_action

Outcome = tuple[tuple[int, ...], int]
"""Score change per side, and the pitcher's seat (-1 when the hand was thrown in)."""

_NO_LOG = new_array([])

if COMPILED:
    import numpy as np

    def _empty(size: int) -> Any:
        return np.empty(size, dtype=np.int64)

else:

    def _empty(size: int) -> Any:
        return [0] * size


def _position(state: GameState) -> Any:
    """A work array holding ``state``'s position (the logs and the deck are scratch)."""
    if state.phase not in (layout.BID, layout.PLAY):
        raise PitchError("a rollout needs a state in the auction or the play (R3, R4)")
    w = _empty(layout.SIZE)
    w[: layout.POSITION_SIZE] = position_list(state)
    return w


def rollout(state: GameState, rng: random.Random, policy: int = layout.HEURISTIC) -> Outcome:
    """Finish ``state``'s hand (``state`` is not changed) under ``policy`` (a mask,
    see :func:`pitch.fastcore.policy_mask`), seeded from ``rng``."""
    return _finish(state, policy, seed64(rng.getrandbits(64)))


def _finish(state: GameState, policy: int, seed: Any) -> Outcome:
    w = _position(state)
    res = new_array([0] * layout.R_SIZE)
    finish(w, policy, seed, res, 0, _NO_LOG)
    delta = tuple(int(x) for x in res[: state.num_sides])
    return delta, int(w[layout.PITCHER])


def heuristic_rollout(state: GameState, rng: random.Random) -> Outcome:
    """The kernel heuristic (:mod:`pitch.fastcore.policy`) for every seat: the same
    outcome as :func:`pitch.bots.heuristic.heuristic_rollout`. Deterministic, so
    ``rng`` is not drawn from, as in the Python one: a search bot given the same
    samples makes the same decisions with either."""
    return _finish(state, layout.HEURISTIC, seed64(0))


def heuristic_action(state: GameState) -> int:
    """The action :func:`pitch.bots.heuristic.state_action` picks in ``state`` (a state
    in the auction or the play), computed by the kernel heuristic."""
    return int(_heuristic_action(_position(state), state.legal_mask()))


def random_rollout(state: GameState, rng: random.Random) -> Outcome:
    """:func:`rollout` with uniformly random legal actions for every seat."""
    return rollout(state, rng, layout.RANDOM)


def evaluate_actions(
    state: GameState,
    actions: Sequence[int],
    rng: random.Random,
    policy: int = layout.HEURISTIC,
) -> list[Outcome]:
    """For each of ``actions`` (legal in ``state``): the outcome of playing it and
    finishing the hand under ``policy``."""
    legal = state.legal_mask()
    for a in actions:
        if not (isinstance(a, int) and 0 <= a < 57 and legal >> a & 1):
            raise PitchError(f"action {a!r} is not legal here (see state.legal_actions())")
    pos = _position(state)
    w = new_array([0] * layout.SIZE)
    res = new_array([0] * layout.R_SIZE)
    out = new_array([0] * (8 * len(actions)))
    evaluate(
        pos, w, new_array(list(actions)), policy, seed64(rng.getrandbits(64)), res, out, _NO_LOG
    )
    sides = state.num_sides
    return [
        (tuple(int(x) for x in out[8 * i : 8 * i + sides]), int(out[8 * i + 7]))
        for i in range(len(actions))
    ]
