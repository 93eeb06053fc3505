"""The learned game value: how likely a side is to win the game from a score.

Trained by self-play (``pitch train win-value``): the compiled simulator plays whole
games with the heuristic in every seat (:func:`pitch.fastcore.games.play_games`) on
every table (heads-up, solo 3-7, partnership) and target (7, 11, 15, 21), and counts,
for each side at the start of each hand, the cell of the win table it was in
(:mod:`pitch.fastcore.value`: sides, deals next, points it needs, points the closest
other side needs) and whether it went on to win. A small neural network (two tanh
layers, under a thousand weights) is fitted to those counts by weighted log loss,
which smooths the cells that few games reached; the shipped model
(``pitch/bots/models/win_value.json``) holds its weights and the table baked from
them, which the search reads through :mod:`pitch.bots.winvalue` (``pimc:value=win``).

Why numpy: the network is tiny and trains in seconds on one core, numpy is already
installed with the compiled core (the ``fast`` extra, for numba), and the search never
runs the network (it reads the baked table in the kernel). PyTorch would add hundreds
of megabytes for nothing the model needs.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from pitch.bots.winvalue import FORMAT, MODEL_PATH
from pitch.engine import Rules
from pitch.engine.errors import PitchError
from pitch.fastcore import layout
from pitch.fastcore._jit import COMPILED, new_array, seed64, zeros
from pitch.fastcore.bidmodel import TABLES
from pitch.fastcore.games import ROW, STATS, play_games
from pitch.fastcore.packing import table
from pitch.fastcore.value import CELLS, MAX_SIDES, MIN_SIDES, TOGO, TOGO_MIN
from pitch.training import selfplay

__all__ = [
    "FORMAT",
    "MODEL_PATH",
    "TABLES",
    "bake",
    "cells",
    "fit",
    "play_task",
    "save",
    "self_play",
    "train",
]

TARGETS: Final = (7, 11, 15, 21)
"""The targets self-play covers (R6.1)."""
BATCH: Final = 2000
"""Games per task: the unit of work a thread or a Ray task plays."""
MAX_HANDS: Final = 300
"""A game still going after this many hands is left out of the counts."""
HIDDEN: Final = (24, 24)
STEPS: Final = 3000
FEATURES: Final = 9


def features(sides: int, deals: int, need: int, other: int) -> list[float]:
    """The network's inputs for a cell (needs already clipped to the table's range)."""
    return [
        need / 8.0,
        other / 8.0,
        (need - other) / 8.0,
        float(deals),
        (sides - MIN_SIDES) / 5.0,
        1.0 if need <= 4 else 0.0,  # one pitched hand can take it out
        1.0 if other <= 4 else 0.0,
        1.0 if need <= 2 else 0.0,
        1.0 if other <= 2 else 0.0,
    ]


def cells() -> Iterator[tuple[int, int, int, int]]:
    """Every cell of the table as ``(sides, deals, need, other)``, in table order
    (the order of :func:`pitch.fastcore.value.win_cell`)."""
    for sides in range(MIN_SIDES, MAX_SIDES + 1):
        for deals in (0, 1):
            for i in range(TOGO):
                for j in range(TOGO):
                    yield sides, deals, i + TOGO_MIN, j + TOGO_MIN


# -- self-play ---------------------------------------------------------------


def play_task(players: int, partnerships: bool, target: int, games: int, seed: int) -> list[int]:
    """``games`` self-play games of one table: the cell counts (``2 * CELLS`` ints:
    times in each cell, then wins from it) followed by the :data:`STATS` figures."""
    rules = Rules(players=players, partnerships=partnerships, target=target)
    w = new_array(table(rules, 0))
    counts = zeros(2 * CELLS)
    stats = zeros(STATS)
    play_games(
        w, games, layout.HEURISTIC, seed64(seed), MAX_HANDS, zeros(layout.R_SIZE),
        zeros(MAX_HANDS * ROW), counts, stats, new_array([]),
    )  # fmt: skip
    return [int(x) for x in counts] + [int(x) for x in stats]


Task = tuple[int, bool, int, int, int]
Runner = Callable[[Sequence[Task]], Iterator[list[int]]]


def tasks(games: int, seed: int) -> list[Task]:
    """``games`` games on every table and target, in :data:`BATCH`-game tasks, each
    seeded from ``seed`` and its place in the list (so the counts do not depend on how
    many workers play them, nor where)."""
    out: list[Task] = []
    rng = random.Random(seed)
    for players, partners in TABLES:
        for target in TARGETS:
            left = games
            while left > 0:
                n = min(BATCH, left)
                out.append((players, partners, target, n, rng.getrandbits(63)))
                left -= n
    return out


def self_play(games: int, seed: int, runner: Runner) -> tuple[list[int], list[int]]:
    """Cell counts (``2 * CELLS``) and :data:`STATS` totals over ``games`` games of
    each table and target."""
    counts = [0] * (2 * CELLS)
    stats = [0] * STATS
    for part in runner(tasks(games, seed)):
        for i in range(2 * CELLS):
            counts[i] += part[i]
        for i in range(STATS):
            stats[i] += part[2 * CELLS + i]
    return counts, stats


# -- the network ---------------------------------------------------------------


def _init(seed: int) -> list[Any]:
    np = selfplay.numpy()
    rng = np.random.default_rng(seed)
    sizes = (FEATURES, *HIDDEN, 1)
    params = []
    for a, b in itertools.pairwise(sizes):
        params.append(rng.normal(0.0, 1.0 / math.sqrt(a), (a, b)))
        params.append(np.zeros(b))
    return params


def _forward(params: Sequence[Any], x: Any) -> tuple[Any, list[Any]]:
    np = selfplay.numpy()
    acts = [x]
    h = x
    for k in range(0, len(params) - 2, 2):
        h = np.tanh(h @ params[k] + params[k + 1])
        acts.append(h)
    return (h @ params[-2] + params[-1])[:, 0], acts


def fit(counts: Sequence[int], seed: int, steps: int = STEPS) -> tuple[list[Any], dict[str, float]]:
    """The network fitted to the counts by Adam on the weighted log loss; returns the
    parameters and the fit's figures (log loss per visit, against the loss of one
    constant and of the raw cell frequencies)."""
    np = selfplay.numpy()
    c = np.asarray(counts, dtype=np.float64).reshape(CELLS, 2)
    seen = c[:, 0] > 0
    x = np.asarray([features(*cell) for cell in cells()], dtype=np.float64)[seen]
    n = c[seen, 0]
    y = c[seen, 1] / n
    weight = n / n.sum()
    params = _init(seed)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2 = 0.01, 0.9, 0.999
    for t in range(1, steps + 1):
        z, acts = _forward(params, x)
        p = 1.0 / (1.0 + np.exp(-z))
        g = ((p - y) * weight)[:, None]  # d loss / d logit
        grads: list[Any] = [None] * len(params)
        for k in range(len(params) - 2, -1, -2):
            grads[k] = acts[k // 2].T @ g
            grads[k + 1] = g.sum(axis=0)
            if k:
                g = (g @ params[k].T) * (1.0 - acts[k // 2] ** 2)
        for k, gr in enumerate(grads):
            m[k] = b1 * m[k] + (1 - b1) * gr
            v[k] = b2 * v[k] + (1 - b2) * gr * gr
            params[k] -= lr * (m[k] / (1 - b1**t)) / (np.sqrt(v[k] / (1 - b2**t)) + 1e-8)

    def loss(q: Any) -> float:
        q = np.clip(q, 1e-9, 1 - 1e-9)
        return float(-(weight * (y * np.log(q) + (1 - y) * np.log(1 - q))).sum())

    z, _ = _forward(params, x)
    figures = {
        "log_loss": loss(1.0 / (1.0 + np.exp(-z))),
        "log_loss_cells": loss(y),
        "log_loss_constant": loss(np.full_like(y, float((y * weight).sum()))),
        "cells_seen": float(seen.sum()),
    }
    return params, figures


def bake(weights: Sequence[Sequence[Any]]) -> list[float]:
    """The table: the network's win chance for every cell (4 decimals). Plain Python,
    so that a check needs no numpy."""
    out = []
    layers = [(weights[k], weights[k + 1]) for k in range(0, len(weights), 2)]
    for cell in cells():
        h = features(*cell)
        for li, (wm, bias) in enumerate(layers):
            z = [bias[j] + sum(h[i] * wm[i][j] for i in range(len(h))) for j in range(len(bias))]
            h = z if li == len(layers) - 1 else [math.tanh(t) for t in z]
        out.append(round(1.0 / (1.0 + math.exp(-h[0])), 4))
    return out


def point_scale(table_: Sequence[float]) -> float:
    """Points one unit of win chance is worth at the start of a partnership game to 7:
    two points over the chance that two points change (both deals averaged), so that
    the search's point margins (``bid_margin``) keep their size."""
    from pitch.fastcore.value import win_cell

    slope = 0.0
    for deals in (0, 1):
        slope += table_[win_cell(2, deals, 6, 7)] - table_[win_cell(2, deals, 8, 7)]
    slope /= 2.0
    if not slope > 0:
        raise PitchError("the win table does not rise with the score; train on more games")
    return round(2.0 / slope, 3)


def train(games: int, seed: int, runner: Runner, steps: int = STEPS) -> dict[str, Any]:
    """Self-play, fit and bake: the model as the JSON object :func:`save` writes."""
    if games < 1:
        raise PitchError(f"games per table and target must be 1 or more, not {games}")
    started = time.perf_counter()
    counts, stats = self_play(games, seed, runner)
    played = time.perf_counter() - started
    params, figures = fit(counts, seed, steps)
    weights = [p.tolist() for p in params]
    baked = bake(weights)
    return {
        "format": FORMAT,
        "kind": "win-value",
        "library": "numpy",
        "compiled": COMPILED,
        "seed": seed,
        "games_per_table_and_target": games,
        "tables": [list(t) for t in TABLES],
        "targets": list(TARGETS),
        "policy": "heuristic",
        "games_finished": stats[0],
        "games_unfinished": stats[1],
        "hands": stats[2],
        "self_play_seconds": round(played, 1),
        "fit_seconds": round(time.perf_counter() - started - played, 1),
        "hidden": list(HIDDEN),
        "steps": steps,
        "fit": {k: round(v, 6) for k, v in figures.items()},
        "scale": point_scale(baked),
        "weights": weights,
        "table": baked,
    }


def save(model: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(model, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")
