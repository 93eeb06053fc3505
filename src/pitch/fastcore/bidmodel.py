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

from pathlib import Path
from typing import Any, Final

from pitch.fastcore import modelfile
from pitch.fastcore.modelfile import FORMAT, PARTNERSHIP, TABLES, fingerprint, model_index

__all__ = ["FORMAT", "PARTNERSHIP", "TABLES", "fingerprint", "model_index"]

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
MODEL_PATH: Final = Path(__file__).parent / "bid_value.json"
"""The shipped model."""


def weights_of(data: Any, where: str) -> tuple[float, ...]:
    """The flat weights of a bid model's JSON object, checked
    (:func:`pitch.fastcore.modelfile.table_weights`)."""
    return modelfile.table_weights(data, where, "bid-value", FEATURES)


def read(path: Path) -> tuple[float, ...]:
    """A model file's weights (:func:`weights_of`)."""
    return modelfile.read(path, "bid-value", FEATURES)


def formula_weights() -> list[list[float]]:
    """The model that is the hand-written estimate alone (its weight 1, the rest 0):
    the heuristic's bids before they were learned, and a test's known answer."""
    row = [0.0] * FEATURES
    row[W_DENSE + DENSE.index("formula")] = 1.0
    return [list(row) for _ in TABLES]


WEIGHTS: Final = read(MODEL_PATH)
"""The shipped weights, table after table (:func:`model_index`)."""
