"""Table options (R1, R3, R5, R6) as a frozen, self-validating value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from pitch.engine.errors import RulesError

LowTo = Literal["captor", "holder"]
AllPass = Literal["dealer_bids", "redeal"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The options of one table. Every default is the rule in RULES.md.

    >>> Rules(players=5, target=11).num_sides
    5
    >>> Rules.from_dict(Rules(partnerships=True).to_dict()) == Rules(partnerships=True)
    True
    """

    players: int = 4
    """R1.1: 2 to 7 players."""
    partnerships: bool = False
    """R1.2: two teams of two, seats 0+2 against 1+3 (4 players only)."""
    target: int = 7
    """R6.1: points needed to win (7, 11, 15, 21 or any positive number)."""
    low_to: LowTo = "captor"
    """R5.2: Low goes to the side that captures it (seed) or, as a house rule,
    to the side of the player who was dealt it ("holder")."""
    dealer_may_steal: bool = True
    """R3.6: the dealer may take the contract by equalling the high bid."""
    all_pass: AllPass = "dealer_bids"
    """R3.5: when all others pass the dealer must bid 2+ (seed), or, as a house
    rule, the dealer may pass too and the hand is thrown in and redealt by the
    next dealer ("redeal")."""
    min_bid: int = 1
    """R3.2: the lowest bid allowed (1 in the seed rules, 2 as a house rule)."""
    must_make_bid_to_win: bool = False
    """R6.2 house rule: the pitcher's side goes out only on a hand whose bid it made."""

    def __post_init__(self) -> None:
        _check_int("players", self.players)
        _check_int("target", self.target)
        _check_int("min_bid", self.min_bid)
        for name in ("partnerships", "dealer_may_steal", "must_make_bid_to_win"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}.")
        if not 2 <= self.players <= 7:
            raise RulesError(f"R1.1: Pitch is played by 2 to 7 players, not {self.players}.")
        if self.partnerships and self.players != 4:
            raise RulesError(
                f"R1.2: the partnership game needs exactly 4 players, not {self.players}."
            )
        if self.target < 1:
            raise RulesError(f"R6.1: the target must be a positive number, not {self.target}.")
        if self.low_to not in ("captor", "holder"):
            raise RulesError(f"R5.2: low_to must be 'captor' or 'holder', not {self.low_to!r}.")
        if self.all_pass not in ("dealer_bids", "redeal"):
            raise RulesError(
                f"R3.5: all_pass must be 'dealer_bids' or 'redeal', not {self.all_pass!r}."
            )
        if self.min_bid not in (1, 2):
            raise RulesError(f"R3.2: min_bid must be 1 or 2, not {self.min_bid}.")

    @property
    def num_sides(self) -> int:
        """R1.4: a side is a player, or a team in the partnership game."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Build from a record's ``rules`` object. Unknown keys are ignored so that
        newer records still read; missing keys take the seed rules' defaults."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a JSON object, not {type(data).__name__}.")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, **changes)


def _check_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{name} must be a whole number, not {value!r}.")


PRESETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "partnership": Rules(partnerships=True),
    "cutthroat": Rules(players=3),
    "heads-up": Rules(players=2),
    "eleven": Rules(target=11),
    "fifteen": Rules(target=15),
    "twenty-one": Rules(target=21, partnerships=True),
    "club": Rules(partnerships=True, target=11, must_make_bid_to_win=True),
    "no-steal": Rules(dealer_may_steal=False),
    "redeal": Rules(all_pass="redeal", min_bid=2),
}
"""Named tables. ``standard`` is RULES.md exactly; the others change only what
their name says (``club``: partners to 11, the pitcher must make the bid to go out)."""


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}.") from None
