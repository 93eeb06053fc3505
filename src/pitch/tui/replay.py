"""``pitch replay``: step through any game record, hand by hand, trick by trick.

Every card is face up. Enter shows the next trick, ``n`` jumps to the end of the
hand, ``q`` stops. Without a terminal on standard input the whole game is printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from pitch.bots.analysis import Decision, GameAnalysis
from pitch.engine import HandRecord, Rules, action_str, replay_record
from pitch.i18n import _, suit_name, term
from pitch.tui.app import Terminal
from pitch.tui.cards import card_text, sorted_hand, suit_text
from pitch.tui.render import bid_label, end_lines, hand_summary, trick_line
from pitch.tui.session import Seating


def seating_of(record: dict[str, Any], rules: Rules) -> Seating:
    names = record.get("players")
    if not (
        isinstance(names, list)
        and len(names) == rules.players
        and all(isinstance(x, str) for x in names)
    ):
        names = [_("Seat {seat}").format(seat=s) for s in range(rules.players)]
    return Seating(rules, list(names))


SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Each mark as chess writes it (no words, so no language)."""


def mark_line(seating: Seating, d: Decision) -> Text:
    """A marked decision: the mark, who, the action taken, the best one and the win
    chance given away (the figures of ``pitch analyze``)."""
    mark = d.mark or ""
    line = Text(f"   {SYMBOLS.get(mark, '')} ", style="bold red" if mark == "blunder" else "red")
    line.append(
        f"{seating.names[d.seat]}: {action_str(d.action)} -> {action_str(d.best)} "
        f"(-{100 * d.loss:.1f} %)"
    )
    return line


def hand_screen(
    seating: Seating,
    hand: HandRecord,
    number: int,
    shown: int,
    symbols: bool,
    marks: Sequence[Decision] = (),
) -> RenderableType:
    """Hand ``number`` with its deal, auction and the first ``shown`` tricks, and the
    marked decisions of ``marks`` (this hand's, from :mod:`pitch.bots.analysis`)."""
    n = seating.rules.players
    title = Text(_("Hand {number}").format(number=number), style="bold magenta")
    title.append("  " + term("dealer").capitalize() + ": " + seating.names[hand.dealer])
    if hand.pitcher is not None and hand.trump is not None:
        title.append(
            "  " + term("pitcher").capitalize() + f": {seating.names[hand.pitcher]} ({hand.bid})"
        )
        title.append("  " + term("trump").capitalize() + " ")
        title.append_text(suit_text(hand.trump, symbols))
        title.append(" " + suit_name(hand.trump))
    parts: list[RenderableType] = [title]
    trump = hand.trump if hand.trump is not None else -1
    width = max(len(x) for x in seating.names)
    for s in range(n):
        line = Text(f"{seating.names[s]:<{width}}  ")
        for c in sorted_hand(hand.deal[s], trump):
            line.append_text(card_text(c, symbols))
            line.append(" ")
        parts.append(line)
    auction = Text(_("Auction") + ": ", style="bold")
    auction.append(", ".join(f"{seating.names[s]} {bid_label(b)}" for s, b in hand.bids))
    parts.append(auction)
    parts.extend(mark_line(seating, d) for d in marks if d.trick is None and d.mark)
    for k, tr in enumerate(hand.tricks[:shown]):
        line = Text(f"{term('trick').capitalize()} {k + 1}: ", style="bold")
        line.append_text(trick_line(seating, tr.leader, tr.cards, symbols))
        line.append("-> " + seating.names[tr.winner], style="yellow")
        parts.append(line)
        parts.extend(mark_line(seating, d) for d in marks if d.trick == k and d.mark)
    return Group(*parts)


def run_replay(
    record: dict[str, Any],
    terminal: Terminal,
    *,
    symbols: bool = True,
    analysis: GameAnalysis | None = None,
) -> int:
    """Show a record; the record must pass the verifier first (raises RecordError).
    With an ``analysis`` of it, each hand shows its marked decisions."""
    state = replay_record(record)
    decided = analysis.decisions if analysis is not None else ()
    marks = [[d for d in decided if d.hand == i] for i in range(len(state.history))]
    seating = seating_of(record, state.rules)
    hands = state.history
    interactive = terminal.stdin.isatty()
    try:
        for i, hand in enumerate(hands):
            number = i + 1
            shown = 0 if interactive else len(hand.tricks)
            while interactive and shown < len(hand.tricks):
                terminal.show(hand_screen(seating, hand, number, shown, symbols, marks[i]))
                key = terminal.ask(_("Enter: next trick, n: end of hand, q: quit ")).strip()
                if key.lower() == "q":
                    return 0
                shown = len(hand.tricks) if key.lower() == "n" else shown + 1
            terminal.show(
                Group(
                    hand_screen(seating, hand, number, shown, symbols, marks[i]),
                    hand_summary(seating, hands, number, symbols),
                )
            )
            if interactive and number < len(hands):
                key = terminal.ask(_("Enter: next hand, q: quit ")).strip()
                if key.lower() == "q":
                    return 0
    except (KeyboardInterrupt, EOFError):
        return 0
    if state.winner is not None:
        terminal.console.print(
            Text(
                _("{name} won the game, {score} points!").format(
                    name=seating.side_name(state.winner), score=state.scores[state.winner]
                ),
                style="bold yellow",
            )
        )
        for line in end_lines(state):
            terminal.console.print(line)
    else:
        terminal.console.print(Text(_("The game is unfinished."), style="dim"))
    return 0
