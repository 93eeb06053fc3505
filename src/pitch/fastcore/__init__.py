"""A compiled core for the hot loops: dealing, legal masks, tricks, scoring, playouts.

The kernels (:mod:`~pitch.fastcore.rules`, :mod:`~pitch.fastcore.policy`,
:mod:`~pitch.fastcore.loops`) run as numba machine code when the ``fast`` extra is
installed, and as the same Python source otherwise (:data:`COMPILED` says which).
This module is the Python-facing API; ``docs/fastcore.md`` describes it.

>>> from pitch.engine import GameState, Rules
>>> s = GameState(Rules(players=3))
>>> s.deal_random(random.Random(4))
>>> delta = random_playout(s, seed=7)
>>> len(delta), delta == random_playout(s, seed=7)
(3, True)
>>> unpack(pack(s)).legal_mask() == s.legal_mask()
True
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pitch.engine import GameState, Rules
from pitch.engine.errors import PitchError
from pitch.fastcore import layout
from pitch.fastcore._jit import COMPILED, new_array, seed64, zeros
from pitch.fastcore.loops import finish, simulate
from pitch.fastcore.loops import playout_many as _playout_many
from pitch.fastcore.packing import pack_list, table, unpack

__all__ = [
    "COMPILED",
    "Packed",
    "pack",
    "playout",
    "playout_many",
    "policy_mask",
    "random_playout",
    "simulate_hands",
    "unpack",
    "warm_up",
    "warm_up_noticed",
]

Packed = Any
"""A packed position: a numpy int64 array when compiled, a list of ints otherwise."""


def pack(state: GameState) -> Packed:
    """``state`` as a packed position (see :mod:`pitch.fastcore.layout`)."""
    return new_array(pack_list(state))


POLICIES = ("random", "heuristic", "learned")
"""The playout policies by name (:mod:`pitch.fastcore.layout` says how a mask holds them)."""


def policy_mask(policy: str | int | Sequence[str]) -> int:
    """``'random'``, ``'heuristic'``, ``'learned'`` (the heuristic's bids, the learned
    card model's cards), one name per seat, or a raw mask (see the layout)."""
    if isinstance(policy, int):
        if isinstance(policy, bool) or not 0 <= policy <= layout.ALL_POLICIES:
            raise PitchError(
                f"a policy mask has two bits per seat (0..{layout.ALL_POLICIES}), not {policy}"
            )
        return policy
    names: list[str] = [policy] * 7 if isinstance(policy, str) else [str(p) for p in policy]
    mask = 0
    for seat, name in enumerate(names):
        if name not in POLICIES:
            raise PitchError(f"unknown playout policy {name!r}; choose one of {POLICIES}")
        if name != "random":
            mask |= 1 << seat
        if name == "learned":
            mask |= 1 << (layout.LEARNED_SHIFT + seat)
    return mask


def _seed(seed: int | None) -> Any:
    return seed64(random.getrandbits(64) if seed is None else seed)


def _playable(state: GameState) -> Packed:
    if state.phase not in (layout.BID, layout.PLAY):
        raise PitchError("a playout needs a state in the auction or the play (R3, R4)")
    return pack(state)


def playout(state: GameState, seed: int | None = None, policy: str | int = "random") -> Packed:
    """Finish ``state``'s hand once (``state`` is not changed) and return the whole
    result row (:data:`~pitch.fastcore.layout.R_SIZE` ints; see the layout)."""
    w = _playable(state)
    res = new_array([0] * layout.R_SIZE)
    finish(w, policy_mask(policy), _seed(seed), res, 0, new_array([]))
    return res


def random_playout(state: GameState, seed: int | None = None) -> tuple[int, ...]:
    """Finish the hand with uniformly random legal actions and return each side's
    score change (zeros when the hand is thrown in)."""
    res = playout(state, seed, 0)
    return tuple(int(x) for x in res[: state.num_sides])


def playout_many(
    state: GameState, seed: int | None, n: int, policy: str | int = "random"
) -> tuple[int, ...]:
    """The sum over ``n`` playouts from ``state`` of each side's score change."""
    pos = _playable(state)
    w = new_array([0] * layout.SIZE)
    res = new_array([0] * layout.R_SIZE)
    totals = new_array([0] * 7)
    _playout_many(pos, w, n, policy_mask(policy), _seed(seed), res, totals, new_array([]))
    return tuple(int(x) for x in totals[: state.num_sides])


def simulate_hands(
    rules: Rules,
    n: int,
    seed: int | None = None,
    policy: str | int | Sequence[str] = "random",
    *,
    dealer: int = 0,
    detail: bool = False,
    workers: int = 1,
) -> Any:
    """Deal and play ``n`` independent hands; the deal passes left after each.

    Returns one row per hand: each side's score change, or with ``detail`` the
    whole result row (:mod:`pitch.fastcore.layout` ``R_*``). A numpy ``(n, width)``
    array when compiled, else a list of tuples. With ``workers`` > 1 the hands are
    split into that many batches run by threads at once (the compiled kernels
    release the GIL); batch ``k`` is seeded with ``seed + k``, so the hands differ
    from a one-worker run with the same seed.
    """
    if n < 0:
        raise PitchError(f"the number of hands must be 0 or more, not {n}")
    if workers < 1:
        raise PitchError(f"workers must be 1 or more, not {workers}")
    width = layout.R_SIZE if detail else rules.num_sides
    mask = policy_mask(policy)
    base = random.getrandbits(63) if seed is None else seed
    out = zeros(n * width)
    bounds = [n * k // workers for k in range(workers + 1)]

    def run(k: int) -> None:
        lo, hi = bounds[k], bounds[k + 1]
        w = new_array(table(rules, (dealer + lo) % rules.players))
        res = new_array([0] * layout.R_SIZE)
        part = out[lo * width : hi * width] if COMPILED else [0] * ((hi - lo) * width)
        simulate(w, hi - lo, mask, seed64(base + k), res, part, width, new_array([]))
        if not COMPILED:
            out[lo * width : hi * width] = part

    if workers == 1:
        run(0)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(run, range(workers)))
    if COMPILED:
        return out.reshape(n, width)
    return [tuple(out[i * width : (i + 1) * width]) for i in range(n)]


def warm_up() -> float:
    """Compile the kernels (or load them from numba's on-disk cache) by running each
    once; returns the seconds it took. Cheap after the first call in a process."""
    t0 = time.perf_counter()
    s = GameState(Rules())
    s.deal_random(random.Random(0))
    playout_many(s, 1, 1, "random")
    playout(s, 1, "heuristic")
    simulate_hands(Rules(), 1, 1)
    from pitch.fastcore.search import (
        PimcSearch,
        card_worth,
        evaluate_actions,
        hand_estimate,
        heuristic_rollout,
        view_action,
    )

    heuristic_rollout(s, random.Random(0))
    evaluate_actions(s, list(s.legal_actions()), random.Random(0))
    view = s.view(s.current_player())
    view_action(view)
    hand_estimate(view.hand, 4, False)
    card_worth(0, 0, 1, 0)
    PimcSearch().values(view, list(view.legal_actions()), 1, 6.0, random.Random(0))
    simulate_hands(Rules(), 1, 1, detail=True)
    from pitch.fastcore.ismcts import search

    search(s.view(s.current_player()), random.Random(0), iterations=2)
    return time.perf_counter() - t0


def warm_up_noticed(
    notice: Callable[[], None], after: float = 1.0, work: Callable[[], float] = warm_up
) -> float:
    """``work()`` (:func:`warm_up`), calling ``notice()`` first if it is still running
    ``after`` seconds in: the first run after installing compiles for up to a minute,
    and a player should be told why the game waits (later runs load the cache in ~1 s)."""
    took: list[float] = []
    worker = threading.Thread(target=lambda: took.append(work()), daemon=True)
    worker.start()
    worker.join(after)
    if worker.is_alive():
        notice()
        worker.join()
    return took[0] if took else 0.0
