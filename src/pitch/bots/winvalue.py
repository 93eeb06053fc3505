"""The learned game value as the search reads it: how likely a side is to win the game
from a score.

The shipped model (``models/win_value.json``) holds a table of win chances, one for
each cell of :mod:`pitch.fastcore.value` (sides, deals next, points it needs, points
the closest other side needs), and the points one unit of chance is worth; the search
reads it (``pimc:value=win``, the ``master`` level). Only reading lives here: the
self-play and the network that make the file are :mod:`pitch.training.winvalue`
(``pitch train win-value``), which a bot never loads.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pitch.engine.errors import PitchError
from pitch.fastcore.value import CELLS

MODEL_PATH: Final = Path(__file__).parent / "models" / "win_value.json"
"""The shipped model."""

FORMAT: Final = 1


@dataclass(frozen=True)
class WinModel:
    """The baked table (:data:`~pitch.fastcore.value.CELLS` win chances) and the
    points one unit of it is worth (so that a search's margins stay in points)."""

    table: tuple[float, ...]
    scale: float


def read(path: Path) -> WinModel:
    """A model file's table and scale, checked (size, range, finite)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise PitchError(f"cannot read the win model {path}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PitchError(f"{path} is not a win model of format {FORMAT}")
    tab = data.get("table")
    scale = data.get("scale")
    if not isinstance(tab, list) or len(tab) != CELLS:
        raise PitchError(f"{path}: a win table has {CELLS} cells")
    if not all(isinstance(p, int | float) and 0.0 <= p <= 1.0 for p in tab):
        raise PitchError(f"{path}: win chances lie in 0..1")
    if not (isinstance(scale, int | float) and math.isfinite(scale) and 0 < scale < 1000):
        raise PitchError(f"{path}: the scale must be a positive finite number")
    return WinModel(tuple(float(p) for p in tab), float(scale))


@functools.cache
def shipped() -> WinModel:
    """The model shipped with the package (read once per process)."""
    return read(MODEL_PATH)
