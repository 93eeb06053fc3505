"""The Python-facing calls of the bots: the heuristic on a view, PIMC in batches.

The bots are thin over the kernels: ``heuristic`` asks :func:`view_action`, ``pimc``
runs :class:`PimcSearch`, ``ismcts`` runs :func:`pitch.fastcore.ismcts.search`, and
the hints read the heuristic's estimates through :func:`hand_estimate` and
:func:`card_worth`. :func:`rollout` finishes one hand from a ``GameState`` as
``(score change per side, pitcher seat or -1)``; :func:`evaluate_actions` does one
determinization's whole PIMC step (every legal action, then the rest of the hand)
in one call, so the position is packed once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from pitch.engine import GameState, PlayerView, resample
from pitch.engine.cards import SUIT_MASK
from pitch.engine.errors import PitchError
from pitch.fastcore import layout
from pitch.fastcore._jit import COMPILED, new_array, new_floats, seed64
from pitch.fastcore.determinize import (
    A_FORBID,
    A_NEED,
    A_PLAYED_BY,
    A_SEAT,
    A_SLACK,
    A_TRIES,
    A_UNSEEN,
    AUX_SIZE,
    SCRATCH_SIZE,
)
from pitch.fastcore.loops import evaluate, finish
from pitch.fastcore.packing import pack_list, position_list, view_position_list
from pitch.fastcore.pimc import pimc_values
from pitch.fastcore.policy import best_suit as _best_suit
from pitch.fastcore.policy import card_value as _card_value
from pitch.fastcore.policy import heuristic_action as _heuristic_action
from pitch.fastcore.value import CELLS

T = TypeVar("T")

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
    """The kernel heuristic (:mod:`pitch.fastcore.policy`) for every seat.
    Deterministic, so ``rng`` is not drawn from."""
    return _finish(state, layout.HEURISTIC, seed64(0))


def heuristic_action(state: GameState) -> int:
    """The heuristic's action for the seat to act in ``state`` (a state in the auction
    or the play); it reads only that seat's cards and public information."""
    return int(_heuristic_action(_position(state), state.legal_mask()))


def view_action(view: PlayerView) -> int:
    """The heuristic's action for ``view``'s seat, which must be to act. The policy
    reads only that seat's cards and public information (it never looks at another
    hand: ``tests/fastcore/test_policy.py``), so the view is packed directly, without
    the other seats' unplayed cards (:func:`~pitch.fastcore.packing.view_position_list`)."""
    if view.phase not in (layout.BID, layout.PLAY):
        raise PitchError("the heuristic needs a view taken during the auction or the play")
    w = _empty(layout.SIZE)
    w[: layout.POSITION_SIZE] = view_position_list(view)
    return int(_heuristic_action(w, view.legal))


def hand_estimate(hand: int, players: int, partnerships: bool) -> tuple[int, float]:
    """The heuristic bidder's best suit for ``hand`` and the points it expects to take
    pitching it (the estimate its bid is read from)."""
    suit, est = _best_suit(hand, players, partnerships)
    return int(suit), float(est)


def card_worth(card: int, trump: int, unseen: int, played: int) -> float:
    """The heuristic's worth of ``card`` to whoever captures it (trump set): Game, the
    Jack, and the chance that it is Low given the trumps ``unseen`` and ``played``."""
    return float(_card_value(card, trump, unseen, played))


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


def pack_view(
    view: PlayerView, rng: random.Random, tries: int = 6, slack: int = 1
) -> tuple[Any, Any]:
    """``view`` packed for :func:`pitch.fastcore.determinize.determinize`: a position
    (the public fields and logs of the hand and the seat's own cards; the other hands
    are one consistent deal, which determinizing overwrites) and the ``aux`` array.

    ``tries`` deals are drawn per determinization to match the bids the other seats
    made (1: ignore the auction), keeping the first within ``slack`` of them (see
    :mod:`pitch.fastcore.determinize`)."""
    if view.phase not in (layout.BID, layout.PLAY):
        raise PitchError("a search needs a view taken during the auction or the play (R3, R4)")
    pos = new_array(pack_list(resample(view, rng)))
    aux = [0] * AUX_SIZE
    aux[A_SEAT] = view.seat
    aux[A_UNSEEN] = view.unseen
    others_acted = any(seat != view.seat for seat, _ in view.bids)
    aux[A_TRIES] = max(1, tries) if others_acted else 1
    aux[A_SLACK] = slack
    for t in range(view.rules.players):
        if t != view.seat:
            aux[A_NEED + t] = view.hand_sizes[t]
        voids = view.voids[t]
        aux[A_FORBID + t] = sum(SUIT_MASK[su] for su in range(4) if voids >> su & 1)
        aux[A_PLAYED_BY + t] = view.played_by[t]
    return pos, new_array(aux)


SLICE = 0.01
"""Seconds of kernel work between two looks at the clock, at most, when a search has a
deadline (so it ends at most about this late, or one sample late on a machine where a
sample takes longer). A numba kernel cannot read the clock: the search runs in batches
sized by the speed it measures, and Python looks at the clock between them. Batches of
this length cost no measurable throughput against one long call (docs/benchmarks.md)."""


Sliced = Generator[float | None, None, T]
"""A search that stops at each batch boundary, so that a host may run other work between
its batches (the server's bot workers serve several decisions at once this way): it
yields its deadline (``time.perf_counter()``, ``None``: none) and goes on when resumed,
and returns its result. It reads the clock when resumed, so time spent elsewhere counts
against its deadline. :func:`drain` runs one to the end at once (the plain calls)."""


def drain(steps: Generator[Any, None, T]) -> T:
    """Run a sliced computation to the end, without stopping; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return cast(T, end.value)


def next_batch(last: int, took: float, cap: int, deadline: float, now: float) -> int:
    """How many samples (or iterations) the next batch of a search may run: twice the
    last one (``last`` of them took ``took`` seconds), at most ``cap``, and no more than
    fit, at the measured speed, in :data:`SLICE` or half the time left before
    ``deadline``; at least one. Batch sizes never change what a search computes (the
    kernel's generator state runs on from batch to batch), only where it may stop."""
    room = min(SLICE, (deadline - now) / 2)
    fit = int(room * last / took) if took > 0 else cap
    return max(1, min(2 * last, cap, fit))


@dataclass(frozen=True, slots=True)
class Samples:
    """A search's sampled deals, per candidate action (the same deals for every action):
    ``values`` the payoff on each deal, which the bot chooses by; with detail, summed
    over the deals (in deal order, so batch sizes change no bit), ``points`` the
    viewer's side's score change in the hand and ``chances`` each side's chance of
    winning the game after it (the learned table; zeros without detail)."""

    values: list[list[float]]
    points: list[float]
    chances: list[list[float]]


class PimcSearch:
    """The PIMC search of one bot in the kernel (:mod:`pitch.fastcore.pimc`), with its
    scratch arrays kept between decisions.

    :meth:`values` returns, per candidate action, its payoff on each sampled deal
    (the same deals for every action), like ``PimcBot.evaluate``; it runs batches of
    samples, each batch twice the last (up to :attr:`MAX_BATCH`, and with a deadline,
    :func:`next_batch`), until ``samples`` are done or the ``deadline`` (a
    ``time.perf_counter()`` value) has passed; the first batch always runs.
    """

    MAX_BATCH = 256

    def __init__(
        self,
        policy: int = layout.HEURISTIC,
        table: Sequence[float] = (),
        win: float = 0.0,
        points: float = 1.0,
    ) -> None:
        """Each sampled hand is finished under ``policy`` (a mask, see
        :func:`pitch.fastcore.policy_mask`) and valued as ``points`` times its points
        (with the going-out bonus) plus ``win`` times the chance of winning the game
        read from ``table`` (:func:`pitch.fastcore.value.win_value`; ``table`` has
        :data:`~pitch.fastcore.value.CELLS` floats, or none: points only)."""
        if table and len(table) != CELLS:
            raise PitchError(f"a win table has {CELLS} cells, not {len(table)}")
        self.policy = policy
        self._table = new_floats(len(table))
        self._table[:] = table
        self._win = float(win)
        self._points = float(points)
        self._w0 = new_array([0] * layout.SIZE)
        self._w = new_array([0] * layout.SIZE)
        self._sc = new_array([0] * SCRATCH_SIZE)
        self._res = new_array([0] * layout.R_SIZE)

    def values(
        self,
        view: PlayerView,
        actions: Sequence[int],
        samples: int,
        bonus: float,
        rng: random.Random,
        *,
        tries: int = 6,
        deadline: float | None = None,
    ) -> list[list[float]]:
        return drain(
            self.sliced(
                view, actions, samples, bonus, rng, tries=tries, deadline=deadline, detail=False
            )
        ).values

    def samples(
        self,
        view: PlayerView,
        actions: Sequence[int],
        samples: int,
        bonus: float,
        rng: random.Random,
        *,
        tries: int = 6,
        deadline: float | None = None,
        detail: bool = True,
    ) -> Samples:
        """:meth:`values`, and with ``detail`` the side's points and each side's chance
        of winning summed over the deals too (the same deals and payoffs: only more is
        read)."""
        return drain(
            self.sliced(
                view, actions, samples, bonus, rng, tries=tries, deadline=deadline, detail=detail
            )
        )

    def sliced(
        self,
        view: PlayerView,
        actions: Sequence[int],
        samples: int,
        bonus: float,
        rng: random.Random,
        *,
        tries: int = 6,
        deadline: float | None = None,
        detail: bool = False,
    ) -> Sliced[Samples]:
        """:meth:`samples` in slices (see :data:`Sliced`): it yields after each batch."""
        legal = view.legal
        for a in actions:
            if not (isinstance(a, int) and 0 <= a < 57 and legal >> a & 1):
                raise PitchError(f"action {a!r} is not legal here (see view.legal_actions())")
        pos, aux = pack_view(view, rng, tries)
        acts = new_array(list(actions))
        na = len(actions)
        sides = view.rules.num_sides
        stride = 2 + sides if detail else 1
        out = Samples([[] for _ in actions], [0.0] * na, [[0.0] * sides for _ in actions])
        s = rng.getrandbits(64)
        done = 0
        batch = 4
        while done < samples:
            k = min(batch, samples - done)
            t0 = time.perf_counter()
            vals = new_floats(k * na * stride)
            s = int(
                pimc_values(
                    pos, aux, acts, k, self.policy, float(bonus),
                    self._table, self._win, self._points, seed64(s), vals,
                    self._w0, self._w, self._sc, self._res, _NO_LOG,
                )
            )  # fmt: skip
            for i in range(na):
                out.values[i].extend(float(x) for x in vals[i * stride :: na * stride])
                if detail:
                    # Only sums are kept: a long analysis must not hold a tuple a deal.
                    j = i * stride + 1
                    out.points[i] = sum((float(x) for x in vals[j :: na * stride]), out.points[i])
                    sums = out.chances[i]
                    for t in range(sides):
                        sums[t] = sum((float(x) for x in vals[j + 1 + t :: na * stride]), sums[t])
            done += k
            took = time.perf_counter() - t0
            if done >= samples:
                break
            yield deadline
            if deadline is None:
                batch = min(2 * batch, self.MAX_BATCH)
                continue
            now = time.perf_counter()
            if now >= deadline:
                break
            batch = next_batch(k, took, self.MAX_BATCH, deadline, now)
        return out
