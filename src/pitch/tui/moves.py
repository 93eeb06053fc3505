"""What the player typed, and why a move is refused (the engine's reason, translated).

A move is a card (``Ah``, ``10h``, ``A♥``) or a number from the list of legal moves;
in the auction the number is the bid itself (0 or ``pass`` to pass).
"""

from __future__ import annotations

from dataclasses import dataclass

from pitch.engine import (
    BID,
    PASS,
    CardParseError,
    GameState,
    IllegalActionError,
    parse_card,
)
from pitch.engine.actions import BID_BASE
from pitch.i18n import _, suit_name, term
from pitch.tui.cards import card_label, symbols_to_letters


class InputError(ValueError):
    """Input that is not a move or a command; the message is for the player."""


@dataclass(frozen=True)
class Command:
    name: str  # "hint", "quit", "help", "score", "nothing"


HINT = Command("hint")
QUIT = Command("quit")
HELP = Command("help")
SCORE = Command("score")
LAST = Command("last")
NOTHING = Command("nothing")

_COMMANDS = {
    "?": HINT,
    "h": HINT,
    "hint": HINT,
    "q": QUIT,
    "quit": QUIT,
    "exit": QUIT,
    "help": HELP,
    "s": SCORE,
    "score": SCORE,
    "l": LAST,
    "last": LAST,
    "": NOTHING,
}


def command_words() -> dict[str, Command]:
    """Commands in English and in the current language."""
    words = dict(_COMMANDS)
    for word, cmd in (
        (_("hint"), HINT),
        (_("quit"), QUIT),
        (_("help"), HELP),
        (_("score"), SCORE),
        (_("last"), LAST),
    ):
        words.setdefault(word.lower(), cmd)
    return words


def parse_input(text: str, state: GameState, choices: list[int]) -> int | Command:
    """An action id, a command, or :class:`InputError`.

    ``choices`` are the legal cards in the order shown (numbered from 1)."""
    t = symbols_to_letters(text.strip()).lower()
    cmd = command_words().get(t)
    if cmd is not None:
        return cmd
    if state.phase == BID:
        return _parse_bid(t, text)
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(choices):
            return choices[k - 1]
        if len(choices) == 1:
            raise InputError(
                _("There is no move {number}: your only move is 1, or type the card.").format(
                    number=k
                )
            )
        raise InputError(
            _("There is no move {number}: pick 1 to {last}, or type a card.").format(
                number=k, last=len(choices)
            )
        )
    try:
        return parse_card(t)
    except CardParseError:
        raise InputError(
            _(
                "'{text}' is not a card. Type a card like Ah or 10h (rank, then suit "
                "c d h s), or a number from the list."
            ).format(text=text.strip())
        ) from None


def _parse_bid(t: str, raw: str) -> int:
    if t in ("pass", "p", term("pass").lower()):
        return PASS
    for prefix in ("bid ", term("bid").lower() + " "):
        if t.startswith(prefix):
            t = t[len(prefix) :].strip()
    if t.isdigit() and 0 <= int(t) <= 4:
        return BID_BASE + int(t)
    try:
        return parse_card(t)  # the engine refuses it, naming R3.1
    except CardParseError:
        pass
    raise InputError(
        _("'{text}' is not a bid. Type 0 or pass to pass, or a bid from 1 to 4.").format(
            text=raw.strip()
        )
    )


def explain(err: IllegalActionError) -> str:
    """The rule a refused move breaks, in plain words: the engine's reason, translated."""
    why = err.refusal
    if why is None:
        return str(err)  # built by hand without a refusal (never by GameState)
    reason = why.text(_, suit_name, lambda card: card_label(card, False))
    return _("{reason} ({rule}).").format(reason=reason, rule=why.rule)
