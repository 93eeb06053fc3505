"""The bot interface: a view in, an action id out."""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from pitch.bots.explain import Advice
from pitch.bots.options import Opt, check_options
from pitch.engine import PlayerView
from pitch.engine.rules import Rules

if TYPE_CHECKING:
    from pitch.fastcore.search import Sliced


def deadline(cap: float | None, since: float | None, by: float | None) -> float | None:
    """When a search with the time cap ``cap`` (seconds, ``None``: none) asked at
    ``since`` (``time.perf_counter()``, ``None``: now) must stop, given the host's
    ``by`` (``None``: none); ``None`` when nothing bounds it."""
    ends = [] if by is None else [by]
    if cap is not None:
        ends.append((time.perf_counter() if since is None else since) + cap)
    return min(ends, default=None)


def pick_from_mask(mask: int, rng: random.Random) -> int:
    """A uniformly random set bit of ``mask`` (which must be non-zero)."""
    k = int(rng.random() * mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Bot(ABC):
    """A player. It is shown only its own seat's view (which carries the table's
    ``Rules``) and draws randomness only from the generator it was given, so a
    seeded bot is reproducible and no bot can see another seat's cards."""

    name: ClassVar[str] = "bot"
    level: ClassVar[str] = ""
    """A level name a player understands (beginner, club, expert, master)."""
    OPTIONS: ClassVar[dict[str, Opt]] = {}
    """The bot's options with their types and bounds (:mod:`pitch.bots.options`)."""

    def __init__(self, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    @abstractmethod
    def act(self, view: PlayerView) -> int:
        """Choose a legal action id for ``view.seat``, which is to act."""

    def advise(self, view: PlayerView) -> Advice:
        """The move with the bot's own case for it, for a hint. Search bots add their
        figures (:class:`~pitch.bots.explain.Evidence`); others give the move alone."""
        return Advice(self.act(view))

    def decide(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Advice:
        """:meth:`advise`, on a clock (``time.perf_counter()`` values): ``since`` is when
        the decision was asked (a bot's own time cap counts from then, not from when its
        search starts; default now), ``by`` when the answer must be ready (a host's
        deadline less the time to send it). Bots that think by the clock stop by the
        earlier of the two (:func:`deadline`); the others ignore the clock."""
        return self.advise(view)

    def sliced(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Sliced[Advice]:
        """:meth:`decide` in slices (:data:`~pitch.fastcore.search.Sliced`): a search
        bot yields at each batch boundary of its search, so that a host may serve other
        decisions between them (the server's bot workers); its deadline still counts
        from ``since``, so time spent elsewhere leaves it less search, never more time.
        :meth:`decide` is this run to the end. Bots that do not search answer at once."""
        yield from ()
        return self.decide(view, since=since, by=by)

    def warm_up(self) -> None:  # noqa: B027 - optional hook
        """Load now what the first decision would otherwise load (compiled code,
        models), so that no decision pays for it. Called once, before a host's first
        message (``pitch bot``); the default does nothing."""

    def game_over(self, view: PlayerView) -> None:  # noqa: B027 - optional hook
        """Called once per seat when the game ends (or is stopped), with the final view.
        Bots that keep a process or per-game memory use it; the default does nothing."""

    @classmethod
    def table_defaults(cls, rules: Rules) -> dict[str, Any]:
        """The values that options left at ``None`` take at ``rules``' table (a default
        measured per table), so a frozen spec can name them; the default: none."""
        return {}

    @classmethod
    def checked(cls, given: dict[str, Any]) -> dict[str, Any]:
        """The constructor's options (``locals()``) checked against :attr:`OPTIONS`: a
        non-finite, out-of-range or wrongly typed value raises ``ValueError`` naming it."""
        return check_options(cls.name, cls.OPTIONS, {k: given[k] for k in cls.OPTIONS})

    def describe(self) -> str:
        return self.name
