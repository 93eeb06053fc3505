"""The learned bid estimate's weights: the points a hand takes when it pitches a suit.

The heuristic bids by the points its best suit is expected to take
(:func:`pitch.fastcore.policy.best_suit`). That expectation is learned by self-play
(``pitch train bid-value``, :mod:`pitch.training.bidvalue`): the compiled simulator deals
hands, makes each seat the pitcher of each suit it holds, plays the hand out with the
heuristic and fits a linear model of the points the pitcher's side took to features of
the hand (:func:`pitch.fastcore.policy.suit_features`), one model per table. This
module reads the shipped model (``bid_value.json`` next to it), checked, into one flat
tuple that the kernels compile in as a constant; it needs only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from pitch.engine.errors import PitchError

FORMAT: Final = 1
TABLES: Final = ((2, False), (3, False), (4, False), (5, False), (6, False), (7, False), (4, True))
"""The tables a model covers, in its order: (players, partnerships). The solo table of
``p`` players is model ``p - 2``; the partnership game is the last."""
PARTNERSHIP: Final = len(TABLES) - 1

# A model's weights for one table, by feature (see policy.suit_features):
W_HIGH: Final = 0
"""13 weights: one for each rank of the top trump (a one-hot feature)."""
W_LOW: Final = 13
"""13: the rank of the bottom trump."""
W_COUNT: Final = 26
"""7: the number of trumps (0 unused: a void suit is never pitched)."""
W_DENSE: Final = 33
"""The numeric features, in this order."""
DENSE: Final = (
    "jack",  # the Jack of trump is held
    "jack_x_trumps",  # ... times the number of trumps (guards)
    "jack_under_high",  # ... under a higher trump
    "tens",  # tens held in any suit (Game, R5.4)
    "face_points",  # Game points of the aces and face cards held
    "side_aces",  # aces outside trump
    "second_high",  # the rank of the second trump, -1 with one trump
    "formula",  # the hand-written estimate (policy.suit_estimate)
)
FEATURES: Final = W_DENSE + len(DENSE)
"""Weights a table's model has."""
LIMIT: Final = 100.0
"""No weight of a sane model is this large (a check on the file, not on the fit)."""

MODEL_PATH: Final = Path(__file__).parent / "bid_value.json"
"""The shipped model."""


def model_index(players: int, partnerships: bool) -> int:
    """Which of :data:`TABLES` a table's bids are estimated by."""
    return PARTNERSHIP if partnerships else players - 2


def weights_of(data: Any, where: str) -> tuple[float, ...]:
    """The flat weights (``len(TABLES) * FEATURES`` floats) of a model's JSON object,
    checked: format, shape, finite and bounded numbers."""
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or data.get("kind") != "bid-value"
    ):
        raise PitchError(f"{where} is not a bid model of format {FORMAT}")
    rows = data.get("weights")
    if not isinstance(rows, list) or len(rows) != len(TABLES):
        raise PitchError(f"{where}: a bid model has weights for {len(TABLES)} tables")
    flat: list[float] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != FEATURES:
            raise PitchError(f"{where}: each table has {FEATURES} weights")
        for x in row:
            if isinstance(x, bool) or not isinstance(x, int | float):
                raise PitchError(f"{where}: weights are numbers, not {x!r}")
            if not (math.isfinite(x) and abs(x) < LIMIT):
                raise PitchError(f"{where}: weights are finite and under {LIMIT:g}, not {x!r}")
            flat.append(float(x))
    return tuple(flat)


def read(path: Path) -> tuple[float, ...]:
    """A model file's weights (:func:`weights_of`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise PitchError(f"cannot read the bid model {path}: {e}") from None
    return weights_of(data, str(path))


def formula_weights() -> list[list[float]]:
    """The model that is the hand-written estimate alone (its weight 1, the rest 0):
    the heuristic's bids before they were learned, and a test's known answer."""
    row = [0.0] * FEATURES
    row[W_DENSE + DENSE.index("formula")] = 1.0
    return [list(row) for _ in TABLES]


def fingerprint(weights: Sequence[float]) -> str:
    """A short digest of the weights: compiled kernels hold them as constants, so
    numba's cache is dropped when it changes (:mod:`pitch.fastcore._jit`)."""
    return hashlib.sha256(repr(tuple(weights)).encode()).hexdigest()[:16]


WEIGHTS: Final = read(MODEL_PATH)
"""The shipped weights, table after table (:func:`model_index`)."""
