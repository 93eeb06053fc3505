"""Errors raised by the engine. All are ``ValueError`` subclasses."""

from __future__ import annotations

from collections.abc import Sequence

from pitch.engine.refusals import Refusal


class PitchError(ValueError):
    """Base class for every error the engine raises on bad input."""


class CardParseError(PitchError):
    """Text that is not a card (``'Zz'``) or an id outside 0..51."""


class ActionParseError(PitchError):
    """Text that is not an action (``'bid 9'``, ``'fold'``)."""


class RulesError(PitchError):
    """A table option that is out of range or inconsistent with another."""


class IllegalActionError(PitchError):
    """An action the rules forbid here. The state is left unchanged.

    ``rule`` is the id in RULES.md (``"R4.3"``), ``seat`` the seat that tried it
    (``None`` for the dealing chance player), ``legal`` the legal alternatives as text,
    ``refusal`` the same reason as data (a message key and its arguments) for a front
    end to translate.
    """

    def __init__(
        self,
        rule: str,
        seat: int | None,
        action: str,
        reason: str,
        legal: Sequence[str],
        refusal: Refusal | None = None,
    ) -> None:
        self.rule = rule
        self.refusal = refusal
        self.seat = seat
        self.action = action
        self.reason = reason
        self.legal = tuple(legal)
        who = "the dealer's deal" if seat is None else f"seat {seat}"
        alts = ", ".join(self.legal) if self.legal else "none"
        super().__init__(f"{rule}: {who} may not {action}: {reason} (legal: {alts})")


class RecordError(PitchError):
    """A game record that cannot be read or does not follow the rules."""
