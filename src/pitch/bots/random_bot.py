"""``random``: uniform over the legal actions."""

from __future__ import annotations

from typing import ClassVar

from pitch.bots.base import Bot, pick_from_mask
from pitch.engine import PlayerView


class RandomBot(Bot):
    """Plays a uniformly random legal action. The floor of the ladder."""

    name: ClassVar[str] = "random"
    level: ClassVar[str] = "random"

    def act(self, view: PlayerView) -> int:
        return pick_from_mask(view.legal, self.rng)
