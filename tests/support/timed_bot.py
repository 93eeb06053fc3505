"""A protocol bot timed by its host: each decision measured around the whole exchange
(``tests/protocol/test_on_time.py`` and ``scripts/bench_bot_deadline.py`` share it)."""

from __future__ import annotations

import random
import time

from pitch.bots.base import Bot
from pitch.bots.external import ExternalBot
from pitch.engine import PlayerView


class Timed(Bot):
    """``inner``'s decisions, each timed by the host's clock around the whole exchange."""

    def __init__(self, inner: ExternalBot) -> None:
        super().__init__(rng=random.Random(0))
        self.inner = inner
        self.seconds: list[float] = []

    def act(self, view: PlayerView) -> int:
        t0 = time.perf_counter()
        action = self.inner.act(view)
        self.seconds.append(time.perf_counter() - t0)
        return action

    def game_over(self, view: PlayerView) -> None:
        self.inner.game_over(view)
