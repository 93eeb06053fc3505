"""SO-ISMCTS in the kernel: the whole search of the ``ismcts`` bot (:mod:`pitch.bots.ismcts`).

The tree lives in preallocated arrays (one node per ``NODE_INTS`` ints of ``node``,
its payoff sum in the float array ``total``); node 0 is the root (the seat's
information set). Each iteration:

1. determinize (:func:`pitch.fastcore.determinize.determinize`: the unseen cards
   dealt consistently with the view, voids and the auction);
2. descend: among the children whose action is legal in this determinization,
   add one to each one's *availability* and take the best
   ``total / visits + c * sqrt(log(avail) / visits)`` (ties: the lowest action);
3. when some legal action has no child yet, expand one: the heuristic's choice
   if it is untried, else a uniformly random untried action;
4. finish the hand under the rollout policy, and credit each node on the path with
   :func:`hand_value` ``/ scale`` of the side that chose its action (with the
   going-out bonus ``bid_bonus`` for a bid's node, ``bonus`` for a card's).

:func:`run` does ``k`` iterations per call; :func:`search` (Python) calls it in
chunks until the iterations or the time run out, growing the arrays when the tree
is full, and returns the root's children for the bot to choose from.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Final

from pitch.engine import PlayerView
from pitch.fastcore._jit import COMPILED, below, entry, lowest, njit, popcount, seed64
from pitch.fastcore.determinize import SCRATCH_SIZE, determinize
from pitch.fastcore.layout import (
    BID,
    HEURISTIC,
    PHASE,
    PLAY,
    R_SIZE,
    SIZE,
    TO_ACT,
)
from pitch.fastcore.loops import finish
from pitch.fastcore.pimc import hand_value
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import Arr, apply, legal_mask, mix, side_of, step
from pitch.fastcore.search import Sliced, drain, next_batch, pack_view

# A node's ints in ``node`` (node i at ``i * NODE_INTS``).
VISITS: Final = 0
AVAIL: Final = 1
"""Iterations in which this node's action was legal when its parent was reached."""
FIRST: Final = 2
"""First child (-1: none); children are a linked list through ``NEXT``."""
NEXT: Final = 3
ACTION: Final = 4
NODE_INTS: Final = 5

# ``st``: the node count, then one iteration's path (node, side of the chooser).
ST_COUNT: Final = 0
ST_PATH: Final = 8
ST_SIDE: Final = 72
ST_SIZE: Final = 136
"""A hand has at most 7 bids and 42 cards, so a path is at most 49 nodes."""

CHUNK: Final = 64
"""Iterations per kernel call between two looks at the clock."""


@entry
def heuristic_action(w: Arr, legal: int, s: int) -> tuple[int, int]:
    """The heuristic's action (an entry point, so that the policy is compiled once
    rather than inlined into the search)."""
    return choose(w, legal, HEURISTIC, s)


@njit
def _new_node(node: Arr, total: Arr, st: Arr, parent: int, action: int) -> int:
    i = st[ST_COUNT]
    st[ST_COUNT] = i + 1
    b = i * NODE_INTS
    node[b + VISITS] = 0
    node[b + AVAIL] = 1
    node[b + FIRST] = -1
    node[b + NEXT] = node[parent * NODE_INTS + FIRST]
    node[b + ACTION] = action
    node[parent * NODE_INTS + FIRST] = i
    total[i] = 0.0
    return int(i)


@entry
def run(
    pos: Arr,
    aux: Arr,
    w: Arr,
    sc: Arr,
    res: Arr,
    log: Arr,
    st: Arr,
    node: Arr,
    total: Arr,
    k: int,
    c: float,
    bonus: float,
    bid_bonus: float,
    scale: float,
    policy: int,
    s: int,
) -> tuple[int, int]:
    """Up to ``k`` iterations on the tree (see the module docstring); returns the
    PRNG state and the iterations done (fewer than ``k`` when the tree is full).
    ``w``, ``sc`` (determinization scratch), ``res`` and the empty ``log`` are
    scratch; ``policy`` is the rollout's policy mask. A bid's node is credited with the
    going-out bonus ``bid_bonus``, a card's with ``bonus``."""
    cap = len(total)
    for it in range(k):
        if st[ST_COUNT] >= cap:
            return s, it
        s = determinize(pos, aux, w, sc, s)
        cur = 0
        depth = 0
        while w[PHASE] == BID or w[PHASE] == PLAY:
            legal = legal_mask(w)
            side = side_of(w, w[TO_ACT])
            tried = 0
            best = -1
            best_a = -1
            best_u = -math.inf
            ch = node[cur * NODE_INTS + FIRST]
            while ch >= 0:
                b = ch * NODE_INTS
                a = node[b + ACTION]
                if legal >> a & 1:
                    tried |= 1 << a
                    node[b + AVAIL] += 1
                    v = node[b + VISITS]
                    u = total[ch] / v + c * math.sqrt(math.log(node[b + AVAIL]) / v)
                    if u > best_u or (u == best_u and a < best_a):
                        best_u = u
                        best = ch
                        best_a = a
                ch = node[b + NEXT]
            untried = legal & ~tried
            if untried:
                a, s = heuristic_action(w, legal, s)
                if not untried >> a & 1:
                    s = step(s)
                    m = untried
                    for _ in range(below(mix(s), popcount(untried))):
                        m &= m - 1
                    a = lowest(m)
                best = _new_node(node, total, st, cur, a)
                apply(w, a)
                st[ST_PATH + depth] = best
                st[ST_SIDE + depth] = side
                depth += 1
                break
            apply(w, best_a)
            st[ST_PATH + depth] = best
            st[ST_SIDE + depth] = side
            depth += 1
            cur = best
        s = finish(w, policy, s, res, 0, log)
        for i in range(depth):
            n = st[ST_PATH + i]
            b = n * NODE_INTS
            node[b + VISITS] += 1
            extra = bid_bonus if node[b + ACTION] >= 52 else bonus
            total[n] += hand_value(w, res, st[ST_SIDE + i], extra) / scale
    return s, k


@dataclass(frozen=True)
class Child:
    """A child of the root after a search."""

    action: int
    visits: int
    total: float
    avail: int


@dataclass(frozen=True)
class Tree:
    """A finished search: the iterations run, the nodes made, and the root's children."""

    iterations: int
    nodes: int
    children: tuple[Child, ...]
    node: Any
    total: Any

    def best(self) -> int:
        """The move: most visits, then the highest total, then the lowest action."""
        top = max(self.children, key=lambda ch: (ch.visits, ch.total, -ch.action))
        return top.action


if COMPILED:
    import numpy as np

    def _ints(size: int) -> Any:
        return np.zeros(size, dtype=np.int64)

    def _floats(size: int) -> Any:
        return np.zeros(size, dtype=np.float64)

    def _grow(a: Any, size: int) -> Any:
        out = np.zeros(size, dtype=a.dtype)
        out[: len(a)] = a
        return out

else:

    def _ints(size: int) -> Any:
        return [0] * size

    def _floats(size: int) -> Any:
        return [0.0] * size

    def _grow(a: Any, size: int) -> Any:
        return list(a) + [type(a[0])(0)] * (size - len(a))


def search(
    view: PlayerView,
    rng: random.Random,
    *,
    iterations: int,
    deadline: float | None = None,
    c: float = 0.7,
    policy: int = HEURISTIC,
    tries: int = 6,
    bonus: float = 6.0,
    bid_bonus: float = 6.0,
    scale: float = 4.0,
    capacity: int = 4096,
) -> Tree:
    """:func:`sliced` run to the end at once."""
    return drain(
        sliced(
            view, rng, iterations=iterations, deadline=deadline, c=c, policy=policy,
            tries=tries, bonus=bonus, bid_bonus=bid_bonus, scale=scale, capacity=capacity,
        )
    )  # fmt: skip


def sliced(
    view: PlayerView,
    rng: random.Random,
    *,
    iterations: int,
    deadline: float | None = None,
    c: float = 0.7,
    policy: int = HEURISTIC,
    tries: int = 6,
    bonus: float = 6.0,
    bid_bonus: float = 6.0,
    scale: float = 4.0,
    capacity: int = 4096,
) -> Sliced[Tree]:
    """SO-ISMCTS from ``view`` for ``iterations`` iterations, stopping early once
    ``time.perf_counter()`` passes ``deadline`` (checked every :data:`CHUNK`
    iterations or fewer, as many as fit in :data:`pitch.fastcore.search.SLICE`; at least
    one iteration runs), yielding at each batch boundary (:data:`Sliced`). Draws only
    the seed and the packing of the view from ``rng``; the search itself is the kernel's
    PRNG."""
    pos, aux = pack_view(view, rng, tries)
    w = _ints(SIZE)
    sc = _ints(SCRATCH_SIZE)
    res = _ints(R_SIZE)
    log = _ints(0)
    st = _ints(ST_SIZE)
    cap = max(2, capacity)
    node = _ints(cap * NODE_INTS)
    total = _floats(cap)
    node[FIRST] = -1
    node[NEXT] = -1
    node[ACTION] = -1
    node[AVAIL] = 1
    st[ST_COUNT] = 1
    s = seed64(rng.getrandbits(64))
    done = 0
    chunk = CHUNK if deadline is None else 8  # then sized by the speed measured
    while done < iterations:
        k = min(chunk, iterations - done)
        t0 = time.perf_counter()
        out, did = run(
            pos, aux, w, sc, res, log, st, node, total, k, c, bonus, bid_bonus, scale, policy, s
        )
        s = seed64(int(out))  # numba hands a uint64 back as an int: keep the type stable
        done += int(did)
        if did < k:  # the tree is full: twice the room, and go on
            cap *= 2
            node = _grow(node, cap * NODE_INTS)
            total = _grow(total, cap)
        took = time.perf_counter() - t0
        if done >= iterations:
            break
        yield deadline  # a batch boundary: the host may run other work (Sliced)
        if deadline is None:
            continue
        now = time.perf_counter()
        if now >= deadline and done:
            break
        if did:
            chunk = next_batch(int(did), took, CHUNK, deadline, now)
    children = []
    ch = int(node[FIRST])
    while ch >= 0:
        b = ch * NODE_INTS
        children.append(
            Child(
                int(node[b + ACTION]), int(node[b + VISITS]), float(total[ch]), int(node[b + AVAIL])
            )
        )
        ch = int(node[b + NEXT])
    children.sort(key=lambda x: x.action)
    return Tree(done, int(st[ST_COUNT]), tuple(children), node, total)
