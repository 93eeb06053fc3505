"""Bots by name, with options: ``NAME`` or ``NAME:key=value,key=value``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pitch.bots.base import Bot
from pitch.bots.heuristic import HeuristicBot
from pitch.bots.ismcts import IsmctsBot
from pitch.bots.pimc import PimcBot
from pitch.bots.random_bot import RandomBot

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
}
"""Registered bot names. Other modules add theirs with :func:`register`."""

ALIASES: dict[str, str] = {
    "beginner": "random",
    "club": "heuristic",
    "expert": "ismcts:iterations=1000,time=1.0",
    "master": "pimc:samples=60,time=1.0",
}
"""Level names players understand, mapped to bot specs (``beginner`` -> ``random``,
``master`` -> ``pimc:samples=60,time=1.0``). Options given with the alias override the spec's."""


def register(name: str, factory: BotFactory, *aliases: str) -> None:
    BOTS[name] = factory
    for a in aliases:
        ALIASES[a] = name


@dataclass(frozen=True)
class BotSpec:
    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_bot_spec(text: str) -> BotSpec:
    """``ismcts:time=1.0,iterations=500`` -> ``BotSpec('ismcts', {...})``."""
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    options: dict[str, Any] = {}
    if name in ALIASES:
        base = parse_bot_spec(ALIASES[name])
        name = base.name
        options.update(base.options)
    if name not in BOTS and not name.startswith("ext"):
        known = sorted(BOTS) + sorted(ALIASES)
        raise ValueError(f"unknown bot {text!r}; known bots: {', '.join(known)}")
    if rest.strip():
        for part in rest.split(","):
            key, eq, val = part.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bad option {part!r} in bot {text!r}: expected key=value")
            options[key.strip()] = _value(val.strip())
    return BotSpec(name, options)


def make_bot(spec: str | BotSpec, *, rng: random.Random | None = None) -> Bot:
    s = parse_bot_spec(spec) if isinstance(spec, str) else spec
    factory = BOTS.get(s.name)
    if factory is None:
        raise ValueError(f"unknown bot {s.name!r}; known bots: {', '.join(sorted(BOTS))}")
    try:
        return factory(rng=rng, **s.options)
    except TypeError as e:
        raise ValueError(f"bad options for bot {s.name!r}: {e}") from None
