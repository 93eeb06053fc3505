"""Bot options as typed, bounded values: each bot declares its options once, and every
way of making a bot (the CLI, the server, the bot protocol, the arena) goes through
the same check, so ``pimc:time=nan`` or ``ismcts:c=inf`` is refused where the bot is
made, with a message naming the option, and never reaches a search.

The server narrows the bounds further (:data:`NETWORK`): a request from a stranger
may only ask for the options and ranges that keep one decision within a second or two.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Opt:
    """One option: its type, its range (``lo`` excluded when ``lo_open``), or its
    choices; ``none`` allows ``None`` (no cap)."""

    kind: type
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    choices: tuple[str, ...] = ()
    none: bool = False

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "true or false"
        noun = "a whole number" if self.kind is int else "a number"
        if self.lo is not None and self.hi is not None:
            left = "above" if self.lo_open else "from"
            return f"{noun} {left} {_num(self.lo)} to {_num(self.hi)}"
        return noun

    def check(self, bot: str, key: str, value: Any) -> Any:
        """``value`` as this option's type, or ``ValueError`` naming ``bot`` and ``key``."""
        if value is None and self.none:
            return None
        bad = ValueError(f"bot {bot!r}: option {key} must be {self.describe()}, not {value!r}")
        if self.kind is bool:
            if isinstance(value, bool) or value in (0, 1):
                return bool(value)
            raise bad
        if self.kind is str:
            if isinstance(value, str) and (not self.choices or value in self.choices):
                return value
            raise bad
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad
        if self.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise bad
            value = int(value) if math.isfinite(value) else value
        if not math.isfinite(value):
            raise bad
        if self.lo is not None and (value < self.lo or (self.lo_open and value == self.lo)):
            raise bad
        if self.hi is not None and value > self.hi:
            raise bad
        return self.kind(value)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def check_options(
    bot: str, declared: Mapping[str, Opt], options: Mapping[str, Any]
) -> dict[str, Any]:
    """Every option checked against ``declared``; an unknown key is refused, naming the
    options the bot has."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        opt = declared.get(key)
        if opt is None:
            known = ", ".join(sorted(declared)) or "none"
            why = f"; {RETIRED[key]}" if key in RETIRED else ""
            raise ValueError(f"bot {bot!r} has no option {key!r} (its options: {known}){why}")
        out[key] = opt.check(bot, key, value)
    return out


RETIRED: dict[str, str] = {
    "engine": "it was removed: every search runs in pitch.fastcore (one engine)",
}
"""Options that older specs may still carry, with why they are refused."""

SECONDS = Opt(float, 0.0, 3600.0, lo_open=True, none=True)
"""A time cap per decision (``None``: only the other budget binds)."""

NETWORK: dict[str, dict[str, Opt]] = {
    "random": {},
    "heuristic": {},
    "pimc": {
        "time": Opt(float, 0.0, 2.0, lo_open=True),
        "samples": Opt(int, 1, 5000),
    },
    "ismcts": {
        "time": Opt(float, 0.0, 2.0, lo_open=True),
        "iterations": Opt(int, 1, 500_000),
        "c": Opt(float, 0.0, 10.0),
    },
}
"""What a table created over the network may ask of each bot: every search keeps a time
cap of at most 2 s (``time`` cannot be unset from a spec), and the search knobs that
change the cost of one sample (``tries``, ``bid_factor``, ...) keep their defaults."""

NETWORK_SECONDS = 2.0
"""The most one decision of a network bot may think (:data:`NETWORK`'s ``time`` bound)."""
