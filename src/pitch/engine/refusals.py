"""Why an action is refused, as data: the rule, a message key and its arguments.

The key is the English message (a clause, without the rule id or a full stop), a msgid
the front ends translate (the terminal's ``pitch.po``, the browser's ``web.po``), fill
from ``args`` and follow with the rule. Argument names say
how to show a value: ``suit`` and ``trump`` are suits 0..3, ``card`` is a card id,
every other argument a plain number. The engine itself shows only the English text
(``legality.english``), in :class:`~pitch.engine.errors.IllegalActionError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final


def N_(message: str) -> str:
    """Mark a message key for extraction (pybabel ``-k N_``); the engine imports only
    the standard library, so not :func:`pitch.i18n.N_`."""
    return message


NOT_AN_ACTION: Final = N_("Actions are the numbers 0 to {last}")
NOT_YOUR_TURN: Final = N_("It is not your turn")
DEAL_FIRST: Final = N_("The cards must be dealt before the auction")
ALREADY_DEALT: Final = N_("That card is already dealt")
HAND_UNDER_WAY: Final = N_("A hand is already being dealt or played")
AUCTION_NOT_OVER: Final = N_("The auction is not over: bid or pass first")
DEALER_MUST_BID: Final = N_("Everyone else passed, so the dealer must bid at least 2")
LOWEST_BID: Final = N_("The lowest bid at this table is {min_bid}")
NO_STEAL: Final = N_("At this table the dealer may not steal the bid: bid more than {high} or pass")
BID_HIGHER: Final = N_("You must bid more than {high}, or pass")
STEAL_OR_HIGHER: Final = N_("As the dealer you may bid {high} to take the bid, or more, or pass")
AUCTION_OVER: Final = N_("The auction is over: play a card")
NOT_IN_HAND: Final = N_("{card} is not in your hand")
FOLLOW_SUIT: Final = N_("You must follow suit ({suit}) or play a trump ({trump})")
TRUMP_LED: Final = N_("Trump ({suit}) was led and you hold trump, so you must play trump")
GAME_OVER: Final = N_("The game is over")

KEYS: Final = (
    NOT_AN_ACTION,
    NOT_YOUR_TURN,
    DEAL_FIRST,
    ALREADY_DEALT,
    HAND_UNDER_WAY,
    AUCTION_NOT_OVER,
    DEALER_MUST_BID,
    LOWEST_BID,
    NO_STEAL,
    BID_HIGHER,
    STEAL_OR_HIGHER,
    AUCTION_OVER,
    NOT_IN_HAND,
    FOLLOW_SUIT,
    TRUMP_LED,
    GAME_OVER,
)
"""Every key a refusal can carry (the catalogs' tests read this)."""

SUIT_ARGS: Final = frozenset({"suit", "trump"})
CARD_ARGS: Final = frozenset({"card"})


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action the rules forbid: ``rule`` is its id in RULES.md (``"R4.3"``), ``key``
    one of :data:`KEYS`, ``args`` the numbers that fill the key's ``{placeholders}``."""

    rule: str
    key: str
    args: Mapping[str, int] = field(default_factory=dict)

    def text(
        self,
        translate: Callable[[str], str],
        suit_name: Callable[[int], str],
        card_name: Callable[[int], str],
    ) -> str:
        """The key translated and filled, each argument shown as its name says."""
        shown = {
            k: suit_name(v) if k in SUIT_ARGS else card_name(v) if k in CARD_ARGS else str(v)
            for k, v in self.args.items()
        }
        return translate(self.key).format(**shown)
