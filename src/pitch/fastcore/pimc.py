"""The PIMC search loop in the kernel: determinize, try every action, finish the hand.

The search of the ``pimc`` bot (:mod:`pitch.bots.pimc`): for each sample, one
determinization of the view (:func:`pitch.fastcore.determinize.determinize`), then
for each candidate action the rest of the hand under the rollout policy, valued by
:func:`hand_value` (the one place a search says what a finished hand is worth, going
out included; ``ismcts`` uses it too). One call runs a batch of samples; the bot
calls it in batches until its time is up.
"""

from __future__ import annotations

from pitch.fastcore._jit import entry, njit
from pitch.fastcore.determinize import A_SEAT, determinize
from pitch.fastcore.layout import DECK, R_DELTA, SIDES
from pitch.fastcore.loops import finish
from pitch.fastcore.rules import Arr, apply, goes_out, side_of
from pitch.fastcore.value import win_value


@njit
def hand_value(w: Arr, res: Arr, side: int, bonus: float) -> float:
    """A side's payoff for the hand finished in ``w`` and scored in ``res``: its score
    change relative to the mean of the other sides, plus ``bonus`` when the hand takes
    it out (R6.2, :func:`pitch.fastcore.rules.goes_out`), minus it when the hand takes
    another side out."""
    sides = w[SIDES]
    total = 0
    for j in range(sides):
        total += res[R_DELTA + j]
    d = res[R_DELTA + side]
    v: float = d - (total - d) / (sides - 1)
    out = goes_out(w, res, 0)
    if out >= 0:
        v += bonus if out == side else -bonus
    return v


@entry
def pimc_values(
    pos: Arr,
    aux: Arr,
    actions: Arr,
    samples: int,
    policy: int,
    bonus: float,
    table: Arr,
    win: float,
    points: float,
    s: int,
    values: Arr,
    w0: Arr,
    w: Arr,
    sc: Arr,
    res: Arr,
    log: Arr,
) -> int:
    """``samples`` determinizations of the view ``(pos, aux)``; on each, every action
    of ``actions`` is applied and the hand finished under ``policy``: the payoff for
    the viewer's side goes to ``values[(k * len(actions) + i) * stride]`` (float64):
    ``points`` times the hand's :func:`hand_value` with ``bonus``, plus, when the float
    ``table`` is not empty, :func:`~pitch.fastcore.value.win_value` with the scale
    ``win`` (that many points times the chance of winning the game from the scores it
    leaves). ``stride`` is ``len(values) // (samples * len(actions))``: 1 gives the
    payoff alone (the bot's choice); ``2 + sides`` adds, after it, the viewer's side's
    score change in the hand and every side's chance of winning the game (0 without a
    table), which the analysis reads (:mod:`pitch.bots.analysis`). ``w0``, ``w``
    (positions), ``sc`` (determinization scratch), ``res`` and the empty ``log`` are
    scratch. Returns the PRNG state."""
    side = side_of(pos, aux[A_SEAT])
    na = len(actions)
    sides = pos[SIDES]
    stride = len(values) // (samples * na) if samples * na > 0 else 1
    for k in range(samples):
        s = determinize(pos, aux, w0, sc, s)
        for i in range(na):
            for j in range(DECK):
                w[j] = w0[j]
            apply(w, actions[i])
            s = finish(w, policy, s, res, 0, log)
            v = 0.0
            if points != 0.0:
                v = points * hand_value(w, res, side, bonus)
            j = (k * na + i) * stride
            if len(table):
                p = win_value(w, res, side, table, 1.0)
                v += win * p  # the same float as win_value(..., win)
                if stride > 1:
                    for t in range(sides):
                        values[j + 2 + t] = p if t == side else win_value(w, res, t, table, 1.0)
            values[j] = v
            if stride > 1:
                values[j + 1] = res[R_DELTA + side]
    return s
