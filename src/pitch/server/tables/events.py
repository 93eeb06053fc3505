"""What the tables room tells the rooms above it, on the bus (:mod:`pitch.server.kernel.events`)."""

from __future__ import annotations

from dataclasses import dataclass

from pitch.engine import Rules
from pitch.server.kernel.events import Event
from pitch.server.tables.live import LiveTable


@dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """A table moved on, was seated, adopted or left: the next move nobody at a
    keyboard makes may be due (the scheduler plans it, or clears the timer)."""

    table: LiveTable


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A new hand was dealt at a table still in play: strangers who claimed a bot's
    seat mid-hand (quick play) take it now."""

    table: LiveTable


@dataclass(frozen=True, slots=True)
class TableAdopted(Event):
    """This process took over a stored table (another process's, or one it let go of):
    work the table's old owner may have left undone can be done here (the ratings
    room rates a finished game it finds unrated)."""

    table: LiveTable


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat of a finished game, as the ratings room needs it."""

    seat: int
    side: int
    human: bool
    """A person held the seat at the end, or held it and left (``left``)."""
    name: str | None
    bot: str | None
    """The bot spec that played the seat: its own bot, or the stand-in that finished it
    for a player who left, or the quick-play bot a stranger took it over from."""
    left: bool
    """Its player resigned (left the game) and the stand-in bot finished it: a loss for
    them, whatever the seat's side made of it."""
    late: bool
    """A stranger took the seat over from its bot after hands had been played (quick
    play): the hands before were not theirs."""
    pitched: int = 0
    """Hands this seat won the bidding and pitched (R3.7)."""
    set_back: int = 0
    """Of those, hands its side did not make the bid and was set back (R5)."""


@dataclass(frozen=True, slots=True)
class GameFinished(Event):
    """A game just became over at this process: its last card was played (or the hand
    limit was reached), or its last player resigned. Published once, by the process
    that stored the end; never for a table restored or adopted after a restart (the
    ratings room's sweep finds those it has not rated)."""

    table_id: str
    rules: Rules
    kind: str
    """``headsup`` (2 players), ``solo`` (3 to 7, each for themselves) or
    ``partnership``."""
    rated: bool
    seats: tuple[FinishedSeat, ...]
    sides: tuple[tuple[int, ...], ...]
    """The seats of each side (R1.4)."""
    scores: tuple[int, ...]
    """The final score of each side."""
    winners: tuple[int, ...]
    """The side that won (R6), or none: stopped at the hand limit, or ended by the
    resignation of its last player."""
    resigned: int | None
    """The seat whose player's resignation ended the game, if one did."""


def table_kind(players: int, partnerships: bool) -> str:
    """The kind of game a table is, for ratings: one rating per kind."""
    if partnerships:
        return "partnership"
    return "headsup" if players == 2 else "solo"


def game_finished(t: LiveTable) -> GameFinished:
    """The :class:`GameFinished` of a table that is over (live, restored or adopted)."""
    assert t.state is not None
    rules = t.rules
    seats = []
    pitched = [0] * len(t.seats)
    set_back = [0] * len(t.seats)
    for h in t.state.history:  # a thrown-in hand has no pitcher
        if h.pitcher is not None:
            pitched[h.pitcher] += 1
            set_back[h.pitcher] += h.result is not None and not h.result.made
    for i, s in enumerate(t.seats):
        left = i == t.resigned or (s.kind == "bot" and s.name is not None and not s.pending)
        human = s.kind == "human" or left
        seats.append(
            FinishedSeat(
                seat=i,
                side=rules.side_of(i),
                human=human,
                name=s.name if human else None,
                bot=s.bot,
                left=left,
                late=s.kind == "human" and not left and t.holder_since(i) is not None,
                pitched=pitched[i],
                set_back=set_back[i],
            )
        )
    winner = t.state.winner
    return GameFinished(
        table_id=t.id,
        rules=rules,
        kind=table_kind(rules.players, rules.partnerships),
        rated=t.options.rated,
        seats=tuple(seats),
        sides=rules.sides,
        scores=tuple(t.state.scores),
        winners=() if winner is None or t.resigned is not None else (winner,),
        resigned=t.resigned,
    )
