"""The game loop: draw, read a move, let the bots play at a pace a human can follow.

Input is line by line (``input()``), so the game works in any terminal and over a
pipe; Rich draws the table. Enter while the bots play skips to your next turn.
Ctrl-C (or end of input) saves the game and exits cleanly.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from pitch.bots.explain import Line
from pitch.engine import PLAY, IllegalActionError
from pitch.engine.actions import BID_BASE, parse_action
from pitch.engine.cards import SUITS
from pitch.i18n import _, current_language, suit_name, term
from pitch.tui.cards import card_label
from pitch.tui.moves import (
    HELP,
    HINT,
    LAST,
    NOTHING,
    QUIT,
    SCORE,
    InputError,
    explain,
    parse_input,
)
from pitch.tui.render import (
    final_screen,
    hand_summary,
    play_choices,
    score_sheet,
    table_screen,
)
from pitch.tui.session import Session


class Terminal:
    """Screen and keyboard, and the pace of the bots' plays."""

    def __init__(
        self,
        console: Console,
        *,
        delay: float = 0.6,
        stdin: TextIO | None = None,
        clear: bool = True,
    ) -> None:
        self.console = console
        self.delay = delay
        self.stdin = stdin if stdin is not None else sys.stdin
        self.clear = clear
        self.skip = False

    def show(self, renderable: RenderableType) -> None:
        if self.clear:
            self.console.clear()
        self.console.print(renderable)

    def ask(self, prompt: str) -> str:
        self.console.print(Text(prompt, style="bold"), end="")
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    def pause(self, factor: float = 1.0) -> None:
        """Wait so a human can follow; a line typed meanwhile (Enter) skips ahead."""
        seconds = self.delay * factor
        if self.skip or seconds <= 0:
            return
        try:
            ready, _w, _x = select.select([self.stdin], [], [], seconds)
        except (OSError, ValueError, TypeError):
            # No select on this stream (Windows consoles, test doubles): just wait.
            time.sleep(seconds)
            return
        if ready:
            self.stdin.readline()
            self.skip = True


def describe(session: Session, seat: int, action: int, symbols: bool) -> str:
    """One line saying what just happened (after ``action`` was applied)."""
    name = session.shown_names[seat]
    you = seat == session.human
    st = session.state
    if action >= BID_BASE:
        bid = action - BID_BASE
        if bid == 0:
            return _("You pass.") if you else _("{name} passes.").format(name=name)
        if you:
            return _("You bid {bid}.").format(bid=bid)
        return _("{name} bids {bid}.").format(name=name, bid=bid)
    card = card_label(action, symbols)
    if st.phase == PLAY and len(st.tricks) == 0 and len(st.trick) == 1:
        if you:
            return _("You lead {card}. Trump: {suit}.").format(card=card, suit=suit_name(st.trump))
        return _("{name} leads {card}. Trump: {suit}.").format(
            name=name, card=card, suit=suit_name(st.trump)
        )
    if you:
        text = _("You play {card}.").format(card=card)
    else:
        text = _("{name} plays {card}.").format(name=name, card=card)
    if not st.trick:
        # The trick is complete; if it ended the hand, the tricks are in the history.
        tricks = st.tricks or (st.history[-1].tricks if st.history else ())
        if tricks:
            winner = tricks[-1].winner
            if winner == session.human:
                text += " " + _("You take the trick.")
            else:
                text += " " + _("{name} takes the trick.").format(name=session.shown_names[winner])
    return text


def help_text() -> str:
    return (
        _(
            "Type a card (Ah, 10h, Qs) or its number. In the auction type 0 or pass, or "
            "1-4. ? shows a hint, s the score sheet, q saves and quits. Enter while the "
            "bots play skips ahead."
        )
        + " "
        + _("l shows the last trick.")
    )


def last_trick_text(session: Session, symbols: bool) -> str:
    """The last finished trick, this hand's or the previous hand's, with who took it."""
    st = session.state
    trick = st.tricks[-1] if st.tricks else None
    if trick is None and st.history and st.history[-1].tricks:
        trick = st.history[-1].tricks[-1]
    if trick is None:
        return _("No trick has been played yet.")
    cards = ", ".join(
        f"{session.shown_names[(trick.leader + i) % st.rules.players]} {card_label(c, symbols)}"
        for i, c in enumerate(trick.cards)
    )
    if trick.winner == session.human:
        return _("Last trick: {cards}. You took it.").format(cards=cards)
    return _("Last trick: {cards}. {name} took it.").format(
        cards=cards, name=session.shown_names[trick.winner]
    )


def _prompt(session: Session) -> str:
    st = session.state
    if st.phase != PLAY:
        return _("Your bid (0-4 or pass; ? hint, q quit): ")
    if not st.tricks and not st.trick:  # R4.1: the pitcher's first card makes trump
        return _("Your lead sets trump (card or number; ? hint, q quit): ")
    return _("Your card (card or number; ? hint, q quit): ")


def run(
    session: Session,
    terminal: Terminal,
    save_path: Path,
    *,
    symbols: bool = True,
    on_save: Callable[[Path], None] | None = None,
) -> int:
    """Play until the game ends or the player stops; returns an exit status."""
    event = ""
    message = _("You sit at seat {seat}. Type help for the keys.").format(seat=session.human)
    lang = current_language()
    try:
        while not session.over:
            if session.deal_if_needed():
                terminal.skip = False
                event = _("{name} deals hand {number}.").format(
                    name=session.shown_names[session.state.dealer],
                    number=len(session.state.history) + 1,
                )
            before = len(session.state.history)
            if session.human_to_act():
                terminal.skip = False
                choices = play_choices(session)
                terminal.show(
                    table_screen(session, symbols, event=event, message=message, choices=choices)
                )
                text = terminal.ask(_prompt(session))
                try:
                    got = parse_input(text, session.state, choices)
                except InputError as e:
                    message = str(e)
                    continue
                if got is QUIT:
                    raise KeyboardInterrupt
                if got is HINT:
                    message = hint_text(session, symbols)
                    continue
                if got is HELP:
                    message = help_text()
                    continue
                if got is LAST:
                    message = last_trick_text(session, symbols)
                    continue
                if got is SCORE:
                    terminal.show(
                        score_sheet(
                            session.seating, session.state.history, rows=14, symbols=symbols
                        )
                    )
                    terminal.ask(_("Press Enter to go back to the table."))
                    continue
                if got is NOTHING or not isinstance(got, int):
                    continue
                try:
                    session.play(got)
                except IllegalActionError as e:
                    message = explain(e)
                    continue
                message = ""
                event = describe(session, session.human, got, symbols)
            else:
                seat = session.state.to_act
                action = session.bot_move()
                event = describe(session, seat, action, symbols)
                if len(session.state.history) == before:
                    skip = _("(Enter: skip to your turn)") if terminal.delay > 0 else ""
                    terminal.show(table_screen(session, symbols, event=event, note=skip))
                    trick_done = session.state.phase == PLAY and not session.state.trick
                    terminal.pause(2.0 if trick_done else 1.0)
            if len(session.state.history) > before:
                hist = session.state.history
                session.save(save_path, lang)
                terminal.show(hand_summary(session.seating, hist, len(hist), symbols))
                if not session.over:
                    terminal.ask(_("Press Enter for the next hand. "))
                    event = ""
    except (KeyboardInterrupt, EOFError):
        session.save(save_path, lang)
        session.finish()
        terminal.console.print()
        terminal.console.print(
            _("Game saved to {path}. Continue with: pitch play --resume {path}").format(
                path=save_path
            ),
            highlight=False,
            markup=False,
        )
        return 130
    session.save(save_path, lang)
    session.finish()
    terminal.console.print(
        final_screen(
            session,
            symbols,
            _("Record saved to {path} (watch it with: pitch replay {path}).").format(
                path=save_path
            ),
        )
    )
    return 0


def hint_text(session: Session, symbols: bool) -> str:
    """The hint: the strongest bot's move, what it does, and the bot's own figures."""
    advice, why = session.advice()
    lines = [
        _("Hint (strongest bot): {move}").format(move=_label(advice.action, symbols)),
        line_text(why, symbols),
    ]
    if advice.evidence is not None:
        lines.append(line_text(advice.evidence.line(), symbols))
    return "\n".join(lines)


def line_text(line: Line, symbols: bool) -> str:
    """An explanation line in the player's language, cards and suits as the table
    shows them."""
    args: dict[str, object] = {}
    for k, v in line.args.items():
        if k in ("card", "alt"):
            args[k] = _label(parse_action(str(v)), symbols)
        elif k == "suit":
            args[k] = suit_name(SUITS.index(str(v)))
        else:
            args[k] = v
    return _(line.key).format(**args)


def _label(action: int, symbols: bool) -> str:
    if action >= BID_BASE:
        bid = action - BID_BASE
        return term("pass") if bid == 0 else f"{term('bid')} {bid}"
    return card_label(action, symbols)
