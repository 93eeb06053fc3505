"""The learned bid estimate: how many points a hand takes when it pitches a suit.

Trained by self-play (``pitch train bid-value``): on every table (heads-up, solo 3-7,
partnership) the compiled simulator deals hands and makes every seat the pitcher of
every suit it holds, the heuristic playing each hand out
(:func:`pitch.fastcore.bidsim.pitch_every_suit`); a linear model per table, on the
features of :func:`pitch.fastcore.policy.suit_features`, is fitted to the points the
pitcher's side took by least squares (a little ridge, so that a weight no hand reaches
stays 0). The heuristic bids by it (:mod:`pitch.fastcore.bidmodel`, which reads the
shipped ``pitch/fastcore/bid_value.json``), and so do the search bots' rollouts.

Each fit is judged on hands it was not fitted to (deals from another seed): the mean
squared error of the model against that of the hand-written estimate it replaced and
of one constant. Why numpy: a linear least-squares fit of 41 weights from sums the
kernel keeps is a single solve; numpy comes with the compiled core already.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from pitch.engine import Rules
from pitch.engine.errors import PitchError
from pitch.fastcore import layout
from pitch.fastcore._jit import COMPILED, new_array, new_floats, seed64, zeros
from pitch.fastcore.bidmodel import DENSE, FEATURES, FORMAT, MODEL_PATH, TABLES, W_DENSE
from pitch.fastcore.bidsim import (
    ACC_N,
    ACC_SIZE,
    ACC_XX,
    ACC_XY,
    ACC_Y,
    ACC_YY,
    NONZERO,
    SCRATCH,
    pitch_every_suit,
)
from pitch.fastcore.packing import table
from pitch.training import selfplay

__all__ = ["MODEL_PATH", "fit", "play_task", "save", "self_play", "train"]

BATCH: Final = 5000
"""Deals per task: the unit of work a thread or a Ray task plays."""
RIDGE: Final = 1.0
"""Added to the diagonal of X'X: keeps the solve defined for weights no hand reaches
(a count of 0 trumps) and is nothing beside millions of rows."""
HOLDOUT: Final = 4
"""One deal in this many more is dealt, from another seed, to judge the fit."""
DIGITS: Final = 6
"""Decimals a weight keeps in the model file (the kernels use the file's numbers)."""

Task = tuple[int, int, bool, int, int]
Runner = Callable[[Sequence[Task]], Iterator[tuple[int, list[float]]]]


def play_task(
    index: int, players: int, partnerships: bool, deals: int, seed: int
) -> tuple[int, list[float]]:
    """``deals`` deals of one table, every seat pitching every suit: the task's
    ``index`` and the fit's sums (:data:`pitch.fastcore.bidsim.ACC_SIZE` floats)."""
    w0 = new_array(table(Rules(players=players, partnerships=partnerships), 0))
    acc = new_floats(ACC_SIZE)
    pitch_every_suit(
        w0, deals, seed64(seed), acc, zeros(SCRATCH), zeros(layout.R_SIZE),
        zeros(NONZERO), new_floats(NONZERO), new_array([]),
    )  # fmt: skip
    return index, [float(x) for x in acc]


def tasks(deals: int, seed: int) -> list[Task]:
    """``deals`` deals of every table in :data:`BATCH`-deal tasks, each seeded from
    ``seed`` and its place in the list."""
    out: list[Task] = []
    rng = random.Random(seed)
    for players, partners in TABLES:
        left = deals
        while left > 0:
            n = min(BATCH, left)
            out.append((len(out), players, partners, n, rng.getrandbits(63)))
            left -= n
    return out


def self_play(deals: int, seed: int, runner: Runner) -> list[list[float]]:
    """The fit's sums per table (in :data:`TABLES` order) over ``deals`` deals each,
    added in the order of the tasks, whatever order they finish in (so the sums are
    the same, to the last bit, on any number of workers or machines)."""
    items = tasks(deals, seed)
    parts = dict(runner(items))
    sums = [[0.0] * ACC_SIZE for _ in TABLES]
    where = {t: i for i, t in enumerate(TABLES)}
    for index, players, partners, _, _ in items:
        acc = sums[where[players, partners]]
        part = parts[index]
        for i in range(ACC_SIZE):
            acc[i] += part[i]
    return sums


def _mse(acc: Sequence[float], beta: Any) -> float:
    """Mean squared error of the weights ``beta`` on the rows summed in ``acc``."""
    np = selfplay.numpy()
    n = acc[ACC_N]
    xy = np.asarray(acc[ACC_XY : ACC_XY + FEATURES])
    xx = np.asarray(acc[ACC_XX:]).reshape(FEATURES, FEATURES)
    return float((acc[ACC_YY] - 2.0 * beta @ xy + beta @ xx @ beta) / n)


def fit(acc: Sequence[float]) -> list[float]:
    """Least-squares weights (with :data:`RIDGE`) from one table's sums, rounded to
    :data:`DIGITS` decimals."""
    np = selfplay.numpy()
    if acc[ACC_N] < 1:
        raise PitchError("no hands to fit the bid model to; train on more deals")
    xy = np.asarray(acc[ACC_XY : ACC_XY + FEATURES])
    xx = np.asarray(acc[ACC_XX:]).reshape(FEATURES, FEATURES)
    beta = np.linalg.solve(xx + RIDGE * np.eye(FEATURES), xy)
    return [round(float(b), DIGITS) for b in beta]


def judge(acc: Sequence[float], weights: Sequence[float]) -> dict[str, float]:
    """The fit's figures on held-out rows: mean squared error of the model, of the
    hand-written estimate alone, and of one constant (the rows' mean)."""
    np = selfplay.numpy()
    formula = np.zeros(FEATURES)
    formula[W_DENSE + DENSE.index("formula")] = 1.0
    n = acc[ACC_N]
    mean = acc[ACC_Y] / n
    return {
        "rows": n,
        "mean_points": round(mean, 4),
        "mse": round(_mse(acc, np.asarray(weights)), 4),
        "mse_formula": round(_mse(acc, formula), 4),
        "mse_constant": round(acc[ACC_YY] / n - mean * mean, 4),
    }


def train(deals: int, seed: int, runner: Runner) -> dict[str, Any]:
    """Self-play, fit and judge: the model as the JSON object :func:`save` writes."""
    if deals < HOLDOUT:
        raise PitchError(f"deals per table must be {HOLDOUT} or more, not {deals}")
    started = time.perf_counter()
    sums = self_play(deals, seed, runner)
    held = self_play(deals // HOLDOUT, seed + 1, runner)
    played = time.perf_counter() - started
    weights = [fit(acc) for acc in sums]
    return {
        "format": FORMAT,
        "kind": "bid-value",
        "library": "numpy",
        "compiled": COMPILED,
        "seed": seed,
        "deals_per_table": deals,
        "holdout_deals_per_table": deals // HOLDOUT,
        "tables": [list(t) for t in TABLES],
        "policy": "heuristic",
        "features": {"high": 13, "low": 13, "trumps": 7, "numbers": list(DENSE)},
        "self_play_seconds": round(played, 1),
        "holdout": [judge(h, w) for h, w in zip(held, weights, strict=True)],
        "weights": weights,
    }


def save(model: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
