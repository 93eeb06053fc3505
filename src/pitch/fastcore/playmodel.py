"""The learned card model's weights: how the search's own players choose a card.

The ``learned`` rollout policy (:func:`pitch.fastcore.policy.learned_card`) plays the
card with the highest score, a weighted sum of the features of
:func:`pitch.fastcore.policy.card_features` (what the card is worth, whether it wins
the trick, feeds a partner, ruffs, leads trump...; one of them is "the heuristic's
own card"). The weights are fitted by ``pitch train play-model``
(:mod:`pitch.training.playmodel`) to the cards a bot chose in its recorded games
(a conditional logit over the legal cards), one row per table. This module reads the
shipped model (``play_model.json`` next to it), checked, into one flat tuple the
kernels compile in as a constant; it needs only the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from pitch.fastcore import modelfile
from pitch.fastcore.modelfile import TABLES

KIND: Final = "play-model"
FEATURES: Final = (
    "heuristic",  # the heuristic's own card (policy.heuristic_card)
    "value",  # its worth to whoever captures it (policy.card_value)
    "keep",  # its worth kept in hand for later tricks (policy.keep_value)
    "trump",  # a trump
    "rank",  # its rank, 0 (two) .. 1 (ace)
    "ten",  # a ten (10 of Game, R5.4)
    "jack",  # the Jack of trump (R5.3)
    "wins",  # it beats the trick's best card so far
    "secure_win",  # ... and no opponent still to play can beat it
    "wins_x_trick",  # wins times the worth of the cards in the trick
    "secure_x_gain",  # secure_win times the trick's worth and its own
    "feed",  # a partner holds the trick safely: its worth given to them
    "trump_on_partner",  # a trump played on a partner's trick
    "follow",  # it follows the suit led
    "ruff",  # a trump on an off-suit lead
    "last_wins",  # wins as the trick's last card
    "lead_trump",  # led, a trump
    "lead_master",  # led, no unseen card of its suit is higher
    "lead_game",  # led, its Game value (R5.4) in tens
    "pitcher_trump",  # a trump of the pitcher's side
    "suit_cards",  # cards of its suit in hand, itself included, in sixths
    "singleton",  # the only card of its (side) suit: playing it leaves a void
    "lowest_of_suit",  # the lowest card of its suit in hand
)
"""The features of a card, in the weights' order."""
HEURISTIC_FEATURE: Final = FEATURES.index("heuristic")
NF: Final = len(FEATURES)
MODEL_PATH: Final = Path(__file__).parent / "play_model.json"
"""The shipped model."""


def weights_of(data: Any, where: str) -> tuple[float, ...]:
    """The flat weights of a card model's JSON object, checked
    (:func:`pitch.fastcore.modelfile.table_weights`)."""
    return modelfile.table_weights(data, where, KIND, NF)


def read(path: Path) -> tuple[float, ...]:
    """A model file's weights (:func:`weights_of`)."""
    return modelfile.read(path, KIND, NF)


def heuristic_weights() -> list[list[float]]:
    """The model that is the heuristic alone (its card weighs 1, nothing else counts):
    the ``learned`` policy then plays exactly as the heuristic, a test's known answer."""
    row = [0.0] * NF
    row[HEURISTIC_FEATURE] = 1.0
    return [list(row) for _ in TABLES]


WEIGHTS: Final = read(MODEL_PATH)
"""The shipped weights, table after table (:func:`pitch.fastcore.modelfile.model_index`)."""


def trained(weights: tuple[float, ...]) -> tuple[float, ...]:
    """1.0 for each table whose row is more than the heuristic alone, else 0.0: where
    it is not, the ``learned`` policy plays the heuristic's card without scoring the
    cards (the same card, about half the time)."""
    heuristic = tuple(heuristic_weights()[0])
    return tuple(
        0.0 if tuple(weights[i * NF : (i + 1) * NF]) == heuristic else 1.0
        for i in range(len(TABLES))
    )


TRAINED: Final = trained(WEIGHTS)
"""The shipped model's :func:`trained` tables."""
