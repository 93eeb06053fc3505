"""The analysis of a recorded game: what each decision was worth, seen from its seat.

For every decision of every seat (each bid, each card; the pitcher's first card also
sets trump), the master bot's evaluation (:meth:`pitch.bots.pimc.PimcBot.evaluate`, the
same code behind its moves and the hints) is run on that seat's :class:`PlayerView` at
that moment, never on the cards the seat could not see. Each legal action gets:

- its **value**: the chance that the seat's side wins the game, the mean over sampled
  deals of the learned win chance (:mod:`pitch.fastcore.value`) of the score the hand
  ends on, the rest of the hand played out by the heuristic; 1 or 0 when the hand ends
  the game (R6.2);
- its **points**: the mean score change of the seat's side in the hand (R5).

The **loss** of a decision is the value of the best action less that of the action
taken (>= 0; exactly 0 when only one action was legal), and marks it as an inaccuracy,
a mistake or a blunder at :data:`MARKS`. A player's **accuracy** is the mean over its
decisions (those with a choice) of Lichess's per-move accuracy on the win chance lost,
``103.1668 * exp(-4.354 * loss) - 3.1669`` clipped to 0..100 (``loss`` in 0..1): 100
for no loss, about 80 for 0.05, 63 for 0.1, 24 for 0.3.

Everything is a pure function of (record, game index, seats, budget, seed): each
decision draws from its own generator, seeded from the seed, the game index and the
decision's number, so the same seed gives the same analysis as long as no decision
runs into its time cap (:attr:`Decision.cut` says where one did).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from pitch import fastcore
from pitch.bots.pimc import PimcBot
from pitch.engine import (
    BID,
    NUM_ACTIONS,
    GameState,
    PlayerView,
    action_str,
    bid_action,
    replay_record,
)
from pitch.engine.errors import PitchError

VERSION: Final = 1
"""The version of :meth:`GameAnalysis.to_json`'s format (docs/bots.md)."""

DEALS: Final = 1000
"""Sampled deals per card decision by default (bids get three times as many, as the
master bot's own search does): the master bot's own default."""

TIME: Final = 1.0
"""Seconds each decision may take at most, by default."""

MAX_DEALS: Final = 20_000
MAX_TIME: Final = 60.0
MAX_HANDS: Final = 500
"""A record with more hands is refused (a game to 21 at seven seats takes far fewer)."""

MARKS: Final = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
"""The win chance a decision gives away at which it is marked, worst first (provisional:
docs/bots.md)."""

Progress = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) after each decision."""


def mark_of(loss: float) -> str | None:
    """The mark of a decision that gave away ``loss`` of win chance (``None``: none)."""
    for name, at in MARKS:
        if loss >= at:
            return name
    return None


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy of one move from the win chance it gave away (0..1); 100 for
    none (the formula's own value there is 99.9999)."""
    if loss <= 0:
        return 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669))


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action of a decision: its win chance and the hand's expected points."""

    action: int
    value: float
    points: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat, evaluated from its view."""

    number: int
    """The decision's place in the game, from 0."""
    hand: int
    trick: int | None
    """``None`` for a bid."""
    seat: int
    side: int
    action: int
    best: int
    loss: float
    options: tuple[Option, ...]
    chances: tuple[float, ...]
    """Each side's chance of winning the game after the action taken (from this seat's
    view; the learned chances of the sides need not add up to exactly 1)."""
    deals: int
    cut: bool
    """The time cap stopped the search before its deals were done."""
    trump: bool = False
    """The pitcher's first card, which sets trump (R4.1)."""
    trick_end: bool = False
    """The trick's last card."""

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)

    @property
    def choice(self) -> bool:
        return len(self.options) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.number,
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "side": self.side,
            "kind": "bid" if self.trick is None else "trump" if self.trump else "card",
            "action": action_str(self.action),
            "best": action_str(self.best),
            "loss": _r(self.loss),
            "mark": self.mark,
            "values": {action_str(o.action): _r(o.value) for o in self.options},
            "points": {action_str(o.action): _r(o.points, 2) for o in self.options},
            "chances": [_r(c) for c in self.chances],
            "deals": self.deals,
            "cut": self.cut,
        }


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """One seat's decisions summed up."""

    seat: int
    decisions: int
    """Decisions with a choice (more than one legal action)."""
    accuracy: float | None
    counts: dict[str, int]
    worst: tuple[Decision, ...]
    """The three biggest losses (fewer if it lost less often), biggest first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            **self.counts,
            "worst": [d.number for d in self.worst],
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    game: int
    sides: int
    decisions: tuple[Decision, ...]
    players: tuple[PlayerReport, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "sides": self.sides,
            "decisions": [d.to_json() for d in self.decisions],
            "players": [p.to_json() for p in self.players],
        }


def _r(x: float, digits: int = 4) -> float:
    return round(x, digits) + 0.0  # + 0.0: no "-0.0" in the output


def check_budget(deals: int, seconds: float) -> None:
    """Refuse a budget out of bounds (``PitchError`` saying which)."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise PitchError(f"deals must be a whole number 1..{MAX_DEALS}, not {deals!r}")
    if not (isinstance(seconds, int | float) and math.isfinite(seconds)):
        raise PitchError(f"time must be a finite number of seconds, not {seconds!r}")
    if not 0 < seconds <= MAX_TIME:
        raise PitchError(f"time must be more than 0 and at most {MAX_TIME:g} seconds")


def decisions(record: Mapping[str, Any]) -> list[tuple[int, int | None, PlayerView, int, bool]]:
    """Every decision of a record as ``(hand, trick, view of the seat to act, action
    taken, the pitcher's first card)``; raises ``RecordError`` if the record is refused
    by the rules, ``PitchError`` if it has more than :data:`MAX_HANDS` hands."""
    hands = record.get("hands") if isinstance(record, Mapping) else None
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        raise PitchError(f"a record of {len(hands)} hands is too long (at most {MAX_HANDS})")
    final = replay_record(record)
    if not final.history:
        return []
    state = GameState(final.rules, dealer=final.history[0].dealer)
    out: list[tuple[int, int | None, PlayerView, int, bool]] = []

    def step(hand: int, trick: int | None, action: int, first: bool) -> None:
        out.append((hand, trick, state.view(state.current_player()), action, first))
        state.apply(action)

    for h, rec in enumerate(final.history):
        state.deal(rec.deal)
        for _, bid in rec.bids:
            step(h, None, bid_action(bid), False)
        for t, trick in enumerate(rec.tricks):
            for k, card in enumerate(trick.cards):
                step(h, t, card, t == 0 and k == 0)
    return out


def analyze(
    record: Mapping[str, Any],
    *,
    game: int = 0,
    seats: Collection[int] | None = None,
    deals: int = DEALS,
    seconds: float = TIME,
    seed: int = 0,
    progress: Progress | None = None,
) -> GameAnalysis:
    """The analysis of one game record (see the module docstring): the decisions of
    ``seats`` (default: all), each searched on ``deals`` sampled deals (bids: three
    times as many) and for at most ``seconds``. ``game`` is the record's index in its
    file: it labels the result and, with ``seed``, seeds each decision."""
    check_budget(deals, seconds)
    steps = decisions(record)
    rules = replay_record(record).rules if not steps else steps[0][2].rules
    chosen = range(rules.players) if seats is None else sorted(set(seats))
    if any(not 0 <= s < rules.players for s in chosen):
        raise PitchError(f"seats are 0..{rules.players - 1}")
    todo = [(i, st) for i, st in enumerate(steps) if st[2].seat in chosen]
    done: list[Decision] = []
    for k, (number, (hand, trick, view, taken, first)) in enumerate(todo):
        rng = random.Random(f"pitch-analysis:{seed}:{game}:{number}")
        nxt = steps[number + 1] if number + 1 < len(steps) else None
        d = judge(view, taken, rng=rng, deals=deals, seconds=seconds)
        done.append(
            replace(
                d,
                number=number,
                hand=hand,
                trick=trick,
                trump=first,
                trick_end=trick is not None and (nxt is None or nxt[:2] != (hand, trick)),
            )
        )
        if progress is not None:
            progress(k + 1, len(todo))
    return GameAnalysis(game, rules.num_sides, tuple(done), tuple(_report(s, done) for s in chosen))


@functools.cache
def _ready() -> None:
    """Load the compiled search once a process: loading it must not eat the first
    decision's time."""
    fastcore.warm_up()


def judge(
    view: PlayerView,
    taken: int,
    *,
    rng: random.Random,
    deals: int = DEALS,
    seconds: float = TIME,
) -> Decision:
    """One decision: ``view``'s seat, which is to act, took the legal action ``taken``.
    The master bot's evaluation from that view alone (the hand and trick fields are
    left at 0 and ``None``; :func:`analyze` fills them in)."""
    check_budget(deals, seconds)
    if not (0 <= taken < NUM_ACTIONS and view.legal >> taken & 1):
        raise PitchError(f"action {taken} is not legal for seat {view.seat} here")
    _ready()
    bot = PimcBot(rng=rng, samples=deals, time=seconds)
    want = deals * bot.bid_factor if view.phase == BID else deals
    ev = bot.evaluate(view, since=time.perf_counter())
    opts = tuple(Option(a, ev.chance(i, view.side), ev.points(i)) for i, a in enumerate(ev.actions))
    # Ties go to the action taken (no loss), then to the lowest action id.
    best = max(opts, key=lambda o: (o.value, o.action == taken, -o.action))
    i = ev.actions.index(taken)
    return Decision(
        number=0,
        hand=0,
        trick=None,
        seat=view.seat,
        side=view.side,
        action=taken,
        best=best.action,
        loss=best.value - opts[i].value,
        options=opts,
        chances=tuple(ev.chance(i, s) for s in range(view.rules.num_sides)),
        deals=ev.deals,
        cut=ev.deals < want,
    )


def _report(seat: int, done: list[Decision]) -> PlayerReport:
    mine = [d for d in done if d.seat == seat and d.choice]
    counts = {name: sum(d.mark == name for d in mine) for name, _ in reversed(MARKS)}
    acc = sum(move_accuracy(d.loss) for d in mine) / len(mine) if mine else None
    lost = sorted((d for d in mine if d.loss > 0), key=lambda d: (-d.loss, d.number))
    return PlayerReport(seat, len(mine), acc, counts, tuple(lost[:3]))


def to_json(analyses: list[GameAnalysis]) -> dict[str, Any]:
    """The ``--json`` object of ``pitch analyze`` (docs/bots.md)."""
    return {"version": VERSION, "games": [a.to_json() for a in analyses]}
