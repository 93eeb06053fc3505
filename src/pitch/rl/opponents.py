"""Which of our bots fill the seats a learner does not play."""

from __future__ import annotations

import random

from pitch.bots import BOTS, Bot, make_bot


def default_opponent() -> str:
    """``heuristic`` when that bot is registered, else ``random``."""
    return "heuristic" if "heuristic" in BOTS else "random"


def make_opponents(
    specs: str | list[str] | None, seats: list[int], rng: random.Random
) -> dict[int, Bot]:
    """One bot per seat in ``seats`` from one spec or one spec per seat, each with its
    own generator drawn from ``rng`` (so a seeded episode is reproducible)."""
    if specs is None:
        specs = default_opponent()
    names = [specs] * len(seats) if isinstance(specs, str) else list(specs)
    if len(names) != len(seats):
        raise ValueError(
            f"give one bot spec or {len(seats)} (one per other seat), not {len(names)}"
        )
    return {
        seat: make_bot(name, rng=random.Random(rng.getrandbits(64)))
        for seat, name in zip(seats, names, strict=True)
    }
