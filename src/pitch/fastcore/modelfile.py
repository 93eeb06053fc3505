"""Reading the learned models the kernels compile in: one weight row per table.

Both learned models of the heuristic (the bid estimate, :mod:`pitch.fastcore.bidmodel`,
and the card model, :mod:`pitch.fastcore.playmodel`) ship as a JSON file holding one
row of weights per table of :data:`TABLES`. This module checks such a file (format,
kind, shape, finite and bounded numbers) into the flat tuple the kernels read as a
constant, and names the weights for numba's cache; it needs only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from pitch.engine.errors import PitchError
from pitch.engine.rules import TABLE_KINDS

FORMAT: Final = 1
TABLES: Final = tuple(TABLE_KINDS.values())
"""The tables a model covers, in its order: (players, partnerships). The solo table of
``p`` players is model ``p - 2``; the partnership game is the last."""
PARTNERSHIP: Final = len(TABLES) - 1
LIMIT: Final = 100.0
"""No weight of a sane model is this large (a check on the file, not on the fit)."""


def model_index(players: int, partnerships: bool) -> int:
    """Which of :data:`TABLES` a table's model is."""
    return PARTNERSHIP if partnerships else players - 2


def table_weights(data: Any, where: str, kind: str, features: int) -> tuple[float, ...]:
    """The flat weights (``len(TABLES) * features`` floats) of a model's JSON object of
    ``kind``, checked: format, shape, finite and bounded numbers."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("kind") != kind:
        raise PitchError(f"{where} is not a {kind} model of format {FORMAT}")
    rows = data.get("weights")
    if not isinstance(rows, list) or len(rows) != len(TABLES):
        raise PitchError(f"{where}: a {kind} model has weights for {len(TABLES)} tables")
    flat: list[float] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != features:
            raise PitchError(f"{where}: each table has {features} weights")
        for x in row:
            if isinstance(x, bool) or not isinstance(x, int | float):
                raise PitchError(f"{where}: weights are numbers, not {x!r}")
            if not (math.isfinite(x) and abs(x) < LIMIT):
                raise PitchError(f"{where}: weights are finite and under {LIMIT:g}, not {x!r}")
            flat.append(float(x))
    return tuple(flat)


def read(path: Path, kind: str, features: int) -> tuple[float, ...]:
    """A model file's weights (:func:`table_weights`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise PitchError(f"cannot read the {kind} model {path}: {e}") from None
    return table_weights(data, str(path), kind, features)


def fingerprint(weights: Sequence[float]) -> str:
    """A short digest of the weights: compiled kernels hold them as constants, so
    numba's cache is dropped when it changes (:mod:`pitch.fastcore._jit`)."""
    return hashlib.sha256(repr(tuple(weights)).encode()).hexdigest()[:16]
