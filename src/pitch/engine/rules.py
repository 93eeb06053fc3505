"""Table options (R1, R3, R5, R6) as a frozen, self-validating value."""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from pitch.engine.errors import RulesError

LowTo = Literal["captor", "holder"]
AllPass = Literal["dealer_bids", "redeal"]
Value = bool | int | str


def N_(text: str) -> str:
    """Mark ``text`` as a message key: the terminal and browser catalogs translate it
    (``pybabel extract -k N_``; ``scripts/build_web_i18n.py`` SERVER_KEYS)."""
    return text


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its type, what it may be, where the rules define it, and the
    message keys a form shows for it. :data:`OPTIONS` holds them all."""

    key: str
    """The :class:`Rules` field."""
    rule: str
    """The rule id the option changes (R1.1 ...): every refusal names it."""
    default: Value
    label: str
    """Message key: the option's name in a form (an English sentence)."""
    help: str
    """Message key: one sentence on what it changes."""
    choices: tuple[Value, ...] = ()
    """The allowed values, the default first (bools: ``(False, True)`` or the reverse);
    empty for a whole number in ``low..high``."""
    low: int = 0
    high: int | None = None
    """``None``: no upper bound in the rules (a request is held to :attr:`most`)."""
    house: bool = False
    """A house rule (shown under "House rules"); the others are the table's size,
    teams and target."""
    newer: bool = False
    """Added after records' version 1: :meth:`Rules.to_dict` and ``repr`` leave it out
    at its default, so records and texts of games without it read as they always did
    (a missing key is the default)."""
    refusal: str = ""
    """The refusal of a value out of range, after the rule id (``{value}``: the value);
    empty: ``KEY must be SPAN, not VALUE.``"""
    only_with: tuple[tuple[str, Value], ...] = ()
    """Other options' values without which this one keeps its default (R1.2: the
    partnership game only with 4 players); the lobby's form reads it too."""
    only_with_refusal: str = ""
    """The refusal when :attr:`only_with` does not hold, after the rule id (``{value}``:
    the other option's value)."""

    @property
    def kind(self) -> str:
        """``bool``, ``int`` or ``str``: the JSON type of the value."""
        return type(self.default).__name__

    @property
    def most(self) -> int:
        """The largest whole number a stranger's request may ask for."""
        return self.high if self.high is not None else REQUEST_MAX

    def check(self, value: object) -> None:
        """Raise :class:`RulesError`, naming the rule, unless ``value`` is allowed."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(
                    f"{self.rule}: {self.key} must be true or false, not {shown(value)}."
                )
            return
        if self.kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise RulesError(f"{self.rule}: {self.key} must be a whole number, not {shown(value)}.")
        if self.choices:
            ok = value in self.choices and type(value) is type(self.default)
        elif isinstance(value, int):
            ok = self.low <= value and (self.high is None or value <= self.high)
        else:
            ok = False
        if not ok:
            why = self.refusal or f"{self.key} must be {self.span()}, not {{value}}."
            raise RulesError(f"{self.rule}: " + why.format(value=shown(value)))

    def to_int(self, value: Value) -> int:
        """The value as an int: a bool 0/1, a whole number itself, a word its index in
        :attr:`choices` (how :mod:`pitch.fastcore` packs it)."""
        if isinstance(value, str):
            return self.choices.index(value)
        return int(value)

    def from_int(self, x: int) -> Value:
        """The inverse of :meth:`to_int`."""
        if self.kind == "str":
            return self.choices[x]
        return bool(x) if self.kind == "bool" else int(x)

    def span(self) -> str:
        """The allowed values in words: ``2 to 7``, ``1 or more``, ``'captor' or 'holder'``."""
        if self.choices:
            return _alternatives(self.choices)
        return f"{self.low} or more" if self.high is None else f"{self.low} to {self.high}"

    def public(self) -> dict[str, Any]:
        """The option as the lobby's form reads it (``GET /api/rules/options``)."""
        return {
            "key": self.key,
            "type": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "low": self.low,
            "high": self.most,
            "rule": self.rule,
            "label": self.label,
            "help": self.help,
            "house": self.house,
            "only_with": dict(self.only_with),
        }


REQUEST_MAX: Final = 999
"""The highest target a request from the network may ask for (the rules set none)."""


def _alternatives(values: tuple[Value, ...]) -> str:
    shown = [repr(v) for v in values]
    return " or ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " or " + shown[-1]


# In the packed position's order (pitch.fastcore.layout derives its slots from it).
OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        "players", "R1.1", 4, N_("Players"), N_("Pitch is played by 2 to 7 players."),
        low=2, high=7, refusal="Pitch is played by 2 to 7 players, not {value}.",
    ),
    Option(
        "partnerships", "R1.2", False, N_("Partnerships (seats 1 + 3 against 2 + 4)"),
        N_("Two teams of two, partners sitting opposite (4 players only)."),
        choices=(False, True), only_with=(("players", 4),),
        only_with_refusal="the partnership game needs exactly 4 players, not {value}.",
    ),
    Option(
        "low_to", "R5.2", "captor",
        N_("Low scores for the player who held it, not who captured it"),
        N_("Low goes to the side of the player who was dealt the lowest trump."),
        choices=("captor", "holder"), house=True,
    ),
    Option(
        "dealer_may_steal", "R3.6", True, N_("The dealer may steal the bid by bidding the same"),
        N_("The dealer may take the contract by equalling the high bid."),
        choices=(True, False), house=True,
    ),
    Option(
        "all_pass", "R3.5", "dealer_bids",
        N_("If everyone passes, deal again (instead of the dealer having to bid)"),
        N_("When the others pass the dealer may pass too; the hand is thrown in and redealt."),
        choices=("dealer_bids", "redeal"), house=True,
    ),
    Option(
        "min_bid", "R3.2", 1, N_("Lowest bid is 2"), N_("No bids of 1: the lowest bid is 2."),
        choices=(1, 2), house=True,
    ),
    Option(
        "target", "R6.1", 7, N_("Play to"), N_("The points a side needs to win the game."),
        low=1, refusal="the target must be a positive number, not {value}.",
    ),
    Option(
        "must_make_bid_to_win", "R6.2", False, N_("The pitcher must make the bid to go out"),
        N_("A side goes out only on a hand whose bid it made."),
        choices=(False, True), house=True,
    ),
    Option(
        "smudge", "R6.2", False, N_("Smudge: bidding 4 and taking all four points wins the game"),
        N_(
            "A side that bids 4 and takes High, Low, Jack and Game wins at once, "
            "unless its score before the hand was negative."
        ),
        choices=(False, True), house=True, newer=True,
    ),
)  # fmt: skip
"""Every table option, described once: :class:`Rules` checks its fields by it, the CLI
(``--rule KEY=VALUE``), the server's request schema and the lobby's form read it, and
the fastcore packing and the docs' table follow it."""

OPTION: Final[dict[str, Option]] = {o.key: o for o in OPTIONS}

END_TEXTS: Final[dict[str, str]] = {
    "target": N_("It reached the target at the end of a hand it pitched (R6.2)."),
    "smudge": N_("Smudge: it bid 4 and took all four points (house rule on R6)."),
}
"""Why a game ended (:meth:`pitch.engine.GameState.end_reason`) as message keys the
terminal and browser summaries translate: a new ending needs no change there."""


def shown(value: object, most: int = 40) -> str:
    """``repr(value)`` for a refusal, cut to ``most`` characters: a value from the
    network may be a 4,000-digit number or a page of text, and errors are sent back."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**most else "a huge number"
    return text if len(text) <= most else text[: most - 3] + "..."


def option(key: str) -> Option:
    """The option ``key``; an unknown key raises :class:`RulesError` listing the keys."""
    try:
        return OPTION[key]
    except KeyError:
        raise RulesError(
            f"unknown table option {shown(key)}; choose one of: {', '.join(OPTION)}."
        ) from None


def parse_option(key: str, text: str) -> tuple[str, Value]:
    """``KEY=VALUE`` text (the CLI's ``--rule``) as a checked ``(key, value)``."""
    opt = option(key)
    value: Value = text
    if opt.kind == "bool":
        words = {"true": True, "on": True, "yes": True, "1": True}
        words |= {"false": False, "off": False, "no": False, "0": False}
        value = words.get(text.strip().lower(), text)
    elif opt.kind == "int":
        try:
            value = int(text)
        except ValueError:
            value = text
    opt.check(value)
    return key, value


def check_options(data: dict[str, object]) -> None:
    """Refuse (:class:`RulesError`) an unknown key or a value its option does not allow;
    a request's whole numbers are held to :attr:`Option.most` too."""
    for key, value in data.items():
        opt = option(str(key))
        opt.check(value)
        if opt.kind == "int" and isinstance(value, int) and value > opt.most:
            raise RulesError(
                f"{opt.rule}: {key} may be at most {opt.most} here, not {shown(value)}."
            )


_JSON_KINDS: Final[dict[type, str]] = {
    type(None): "null",
    bool: "true or false",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "an array",
}


@dataclass(frozen=True, kw_only=True, slots=True, repr=False)
class Rules:
    """The options of one table. Every default is the rule in RULES.md; each field is
    checked by its :data:`OPTIONS` entry.

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
    smudge: bool = False
    """House rule on R6: a side that bids 4 and takes High, Low, Jack and Game wins at
    once, unless its score before the hand was negative."""

    def __post_init__(self) -> None:
        for opt in OPTIONS:
            opt.check(getattr(self, opt.key))
        for opt in OPTIONS:
            if getattr(self, opt.key) == opt.default:
                continue
            for key, want in opt.only_with:
                if (value := getattr(self, key)) != want:
                    raise RulesError(f"{opt.rule}: " + opt.only_with_refusal.format(value=value))

    @property
    def num_sides(self) -> int:
        """R1.4: a side is a player, or a team in the partnership game."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, by side (R1.4): ``((0, 2), (1, 3))`` in the
        partnership game (R1.2), one seat a side in the solo game."""
        return _sides(self.players, self.partnerships)

    def play_order(self, leader: int) -> tuple[int, ...]:
        """The seats in the order they play to a trick ``leader`` leads: clockwise
        (R4.2), the left of seat s being seat s+1 (R1.3)."""
        return _play_orders(self.players)[leader]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for opt in OPTIONS:
            if opt.newer and d[opt.key] == opt.default:
                del d[opt.key]
        return d

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"Rules({shown})"

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Build from a record's ``rules`` object. Unknown keys are ignored so that
        newer records still read; missing keys take the seed rules' defaults."""
        if not isinstance(data, dict):
            kind = _JSON_KINDS.get(type(data), type(data).__name__)  # the reader wrote JSON
            raise RulesError(f"rules must be a JSON object, not {kind}.")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, **changes)


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


TABLE_KINDS: Final[dict[str, tuple[int, bool]]] = {
    "heads-up": (2, False),
    **{f"solo{p}": (p, False) for p in range(3, 8)},
    "partnership": (4, True),
}
"""The tables the bots' learned models (one row each) and docs/bots.md's ladder tell
apart, by name: ``(players, partnerships)``."""


# Every state sent to a client names the sides and who played each trick card: both
# are built once per table size, not per message.
@functools.cache
def _sides(players: int, partnerships: bool) -> tuple[tuple[int, ...], ...]:
    rules = Rules(players=players, partnerships=partnerships)
    return tuple(
        tuple(s for s in range(players) if rules.side_of(s) == d) for d in range(rules.num_sides)
    )


@functools.cache
def _play_orders(players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((lead + k) % players for k in range(players)) for lead in range(players))


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}.") from None
