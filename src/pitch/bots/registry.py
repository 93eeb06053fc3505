"""Bots by name, with options: ``NAME`` or ``NAME:key=value,key=value``.

An external program that speaks the bot protocol is ``ext:COMMAND ARGS`` (everything
after ``ext:`` is the command line, split as a shell would), with options in brackets:
``ext[time=0.5,grace=0.2]:python3 my_bot.py`` (see ``docs/bot-protocol.md``).
"""

from __future__ import annotations

import inspect
import random
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from pitch.bots.base import Bot
from pitch.bots.external import ExternalBot
from pitch.bots.heuristic import HeuristicBot
from pitch.bots.ismcts import IsmctsBot
from pitch.bots.options import NETWORK, check_options
from pitch.bots.pimc import PimcBot
from pitch.bots.random_bot import RandomBot
from pitch.engine.rules import Rules

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
    "ext": ExternalBot,
}
"""Registered bot names. Other modules add theirs with :func:`register`."""

ALIASES: dict[str, str] = {
    "beginner": "random",
    "club": "heuristic",
    "expert": "ismcts:time=1.0",
    "master": "pimc:time=1.0",
}
"""The levels players choose from, **weakest to strongest**, mapped to bot specs
(``beginner`` -> ``random``, ``master`` -> ``pimc:time=1.0``). Options given with the
alias override the spec's. This is the one list of levels: the server serves it
(``GET /api/bots``), the web lobby and the terminal take their choices and order from
it (:func:`levels`)."""


@dataclass(frozen=True, slots=True)
class Level:
    level: str
    """The level's name (``club``): clients translate it for display."""
    spec: str
    """The bot spec it plays, normalised as a table stores it (``heuristic``)."""


def levels() -> list[Level]:
    """The levels, weakest to strongest, each with its normalised bot spec."""
    return [Level(name, str(parse_bot_spec(spec))) for name, spec in ALIASES.items()]


def level_of(spec: str | None) -> str | None:
    """The level whose bot ``spec`` is (``heuristic`` or ``club`` -> ``club``), or
    ``None`` for a spec that is no level's."""
    if not spec:
        return None
    try:
        want = str(parse_bot_spec(spec))
    except ValueError:
        return None
    return next((lv.level for lv in levels() if lv.spec == want), None)


def register(name: str, factory: BotFactory, *aliases: str) -> None:
    BOTS[name] = factory
    for a in aliases:
        ALIASES[a] = name


ENTRY_POINT_GROUP = "pitch.bots"
"""Bots defined above this layer or in other packages declare an entry point in this
group (``name = "module:Factory"``); :func:`load_bot` imports one on first use."""


def load_bot(name: str) -> BotFactory | None:
    """The factory registered as ``name``, importing it from its entry point if need be.
    A bot whose optional dependencies are missing gives a clear error."""
    if name in BOTS:
        return BOTS[name]
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        return None
    try:
        factory = found[0].load()
    except ImportError as e:
        raise ValueError(
            f"bot {name!r} needs a package that is not installed ({e.name or e}); "
            "for the bots of pitch.rl: pip install 'pitch[rl]'"
        ) from None
    BOTS.setdefault(name, factory)
    return BOTS[name]


def known_bots() -> list[str]:
    """Registered names and those an entry point offers."""
    return sorted(set(BOTS) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})


@dataclass(frozen=True)
class BotSpec:
    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        if self.name == "ext" and "command" in self.options:
            rest = {k: v for k, v in self.options.items() if k != "command"}
            opts = "[" + ",".join(f"{k}={v}" for k, v in rest.items()) + "]" if rest else ""
            return f"ext{opts}:{self.options['command']}"
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


_EXT = re.compile(r"\s*ext\s*(?:\[([^\]]*)\])?\s*:(.*)", re.IGNORECASE | re.DOTALL)


def _options(rest: str, text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, val = part.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bad option {part!r} in bot {text!r}: expected key=value")
            options[key.strip()] = _value(val.strip())
    return options


def parse_bot_spec(text: str) -> BotSpec:
    """``ismcts:time=1.0,iterations=500`` -> ``BotSpec('ismcts', {...})``.

    >>> str(parse_bot_spec("ext[time=0.5]:python3 bot.py --fast"))
    'ext[time=0.5]:python3 bot.py --fast'
    """
    ext = _EXT.fullmatch(text)
    if ext is not None:
        ext_options = _options(ext[1] or "", text)
        command = ext[2].strip()
        if not command:
            raise ValueError(f"bot {text!r}: ext needs a command line after 'ext:'")
        if "command" in ext_options:
            raise ValueError(f"bot {text!r}: the command goes after 'ext:', not in [...]")
        return BotSpec("ext", {"command": command, **ext_options})
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    options = {}
    if name in ALIASES:
        base = parse_bot_spec(ALIASES[name])
        name = base.name
        options.update(base.options)
    if name == "ext" or name.startswith("ext["):
        raise ValueError(
            f"bot {text!r}: an external bot is 'ext:COMMAND ARGS' or 'ext[time=T]:COMMAND ARGS'"
        )
    if name not in BOTS and name not in known_bots():
        known = known_bots() + sorted(ALIASES)
        raise ValueError(f"unknown bot {text!r}; known bots: {', '.join(known)}")
    options.update(_options(rest, text))
    return BotSpec(name, options)


def make_bot(spec: str | BotSpec, *, rng: random.Random | None = None) -> Bot:
    s = parse_bot_spec(spec) if isinstance(spec, str) else spec
    factory = load_bot(s.name)
    if factory is None:
        raise ValueError(f"unknown bot {s.name!r}; known bots: {', '.join(known_bots())}")
    declared = getattr(factory, "OPTIONS", Bot.OPTIONS)
    if declared is not Bot.OPTIONS:  # the bot declares its options: check them all
        check_options(s.name, declared, s.options)  # names the option, its type and range
    else:
        _check_types(s.name, factory, s.options)
    try:
        return factory(rng=rng, **s.options)
    except TypeError as e:
        raise ValueError(f"bad options for bot {s.name!r}: {e}") from None


def frozen_spec(spec: str | BotSpec, rules: Rules | None = None) -> str:
    """``spec`` with every option spelt out, the defaults of today's code included
    (``master`` -> ``pimc:bid_bonus=2.0,...,win_weight=0.5``), so that a result names
    the bot it measured even after a default changes. A default measured per table
    (``None`` in the signature, :meth:`Bot.table_defaults`) is spelt out for ``rules``'
    table, and left out without ``rules``. An ``ext:`` bot is its spec."""
    s = parse_bot_spec(spec) if isinstance(spec, str) else spec
    factory = load_bot(s.name)
    if s.name == "ext" or factory is None:
        return str(s)
    target = factory.__init__ if inspect.isclass(factory) else factory
    full = {
        p.name: p.default
        for p in inspect.signature(target).parameters.values()
        if p.kind is p.KEYWORD_ONLY
        and p.name != "rng"
        and p.default is not p.empty
        and p.default is not None
    }
    if rules is not None and inspect.isclass(factory) and issubclass(factory, Bot):
        full.update(factory.table_defaults(rules))
    full.update(s.options)
    return str(BotSpec(s.name, dict(sorted(full.items()))))


_KINDS = {int: "a whole number", float: "a number", bool: "true or false"}


def _check_types(name: str, factory: BotFactory, options: dict[str, Any]) -> None:
    """Refuse an option whose value cannot be what the bot's signature declares
    (``pimc:samples=abc``), naming the option, before the bot ever sees it."""
    try:
        target = factory.__init__ if inspect.isclass(factory) else factory
        hints = typing.get_type_hints(target)
    except Exception:  # a factory without usable hints: the bot checks for itself
        return
    for key, value in options.items():
        hint = hints.get(key)
        if hint is None:
            continue
        allowed = set(typing.get_args(hint)) if isinstance(hint, types.UnionType) else {hint}
        allowed.discard(type(None))
        if allowed & {type(value), Any}:
            continue
        if (float in allowed and type(value) is int) or (bool in allowed and value in (0, 1)):
            continue  # a whole number is a number; 0 and 1 read as false and true
        kinds = [_KINDS[k] for k in (int, float, bool) if k in allowed]
        if kinds:
            raise ValueError(
                f"bad options for bot {name!r}: {key} must be {' or '.join(kinds)}, not {value!r}"
            )


def network_spec(text: str) -> BotSpec:
    """A bot spec as a request from the network may give it: a shipped bot or level with
    only the options of :data:`pitch.bots.options.NETWORK`, within its bounds (a time cap
    of at most 2 s a decision). ``ValueError`` says what is refused and what is allowed."""
    spec = parse_bot_spec(text)
    allowed = NETWORK.get(spec.name)
    if allowed is None:
        what = (
            "external program bots (ext:...) would run a command on the server"
            if spec.name == "ext"
            else f"bot {spec.name!r} is not offered here"
        )
        raise ValueError(
            f"{what}; a table may seat {', '.join(sorted(NETWORK))} or a level "
            f"({', '.join(ALIASES)})"
        )
    check_options(spec.name, allowed, spec.options)
    make_bot(spec)  # every other check the bot makes of its options
    return spec
