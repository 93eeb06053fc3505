"""A game at the table: one human seat, bots in the others, save and resume.

No input or output here: :mod:`pitch.tui.app` drives a :class:`Session` and
:mod:`pitch.tui.render` draws it, so tests can play a session directly.

The resume file is a game record (``pitch.engine.game_record``, so ``pitch verify``
accepts it) with the table's metadata and an ``"in_progress"`` key holding the hand
being played (``docs/terminal.md``).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitch.bots import Bot, make_bot, parse_bot_spec
from pitch.bots.explain import Advice, Line, explain
from pitch.bots.registry import ALIASES, BOTS
from pitch.engine import (
    BID,
    DEAL,
    OVER,
    PLAY,
    GameState,
    RecordError,
    Rules,
    card_str,
    cards_of,
    dumps,
    game_record,
    parse_card,
    read_records,
    replay_record,
)
from pitch.engine.actions import BID_BASE
from pitch.i18n import _

BOT_NAMES = ("Ann", "Bo", "Cai", "Dag", "Eli", "Fay", "Gus")


def default_name(seat: int) -> str:
    """The stored name of a player who gave none: the same in every language."""
    return f"Player {seat + 1}"


def known_level(name: str) -> bool:
    n = name.strip().lower().partition(":")[0]
    return n in BOTS or n in ALIASES


def strength_order() -> list[str]:
    """The levels, strongest first: the registry's one list of levels
    (:data:`pitch.bots.registry.ALIASES`, weakest to strongest) reversed, as the web
    lobby orders them too."""
    return [n for n in reversed(ALIASES) if known_level(ALIASES[n])]


def default_level() -> tuple[str, str | None]:
    """``club`` if registered, else the strongest level we have, and a note saying so."""
    if "club" in strength_order():
        return "club", None
    best = strongest_level()
    return best, best


def strongest_level() -> str:
    """The strongest level (the hint asks it), or ``random`` if there is none."""
    return next(iter(strength_order()), "random")


def bot_levels(level: str | None, bots: str | None, players: int, human: int) -> list[str]:
    """One bot spec per bot seat (in seat order, skipping ``human``).

    ``bots`` is a comma-separated list, one per bot seat (or one for all); ``level``
    names one for all. Raises ``ValueError`` for an unknown name."""
    if bots:
        specs = [b.strip() for b in bots.split(",") if b.strip()]
    elif level:
        specs = [level.strip()]
    else:
        specs = [default_level()[0]]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise ValueError(
            f"give one bot level or {players - 1} (one per bot seat), not {len(specs)}"
        )
    for s in specs:
        parse_bot_spec(s)  # raises ValueError naming the known bots
    return specs


@dataclass(frozen=True)
class Seating:
    """Who sits where: enough to name seats and sides on screen."""

    rules: Rules
    names: list[str]

    def side_name(self, side: int) -> str:
        seats = [s for s in range(self.rules.players) if self.rules.side_of(s) == side]
        return " & ".join(self.names[s] for s in seats)


@dataclass
class Session:
    """The table: rules, state, who sits where, and the seed that deals the hands."""

    rules: Rules
    state: GameState
    human: int
    names: list[str]
    specs: list[str | None]
    """Bot spec per seat; ``None`` at the human's seat."""
    seed: int
    bots: list[Bot | None] = field(default_factory=list)
    named: bool = True
    """The player gave a name. Without one their seat is stored as ``Player N`` (a
    record in any language reads the same) and shown as "You" in the player's
    language (:attr:`shown_names`)."""

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        human: int = 0,
        name: str | None = None,
        levels: list[str],
        seed: int | None = None,
    ) -> Session:
        if not 0 <= human < rules.players:
            raise ValueError(f"R1.3: seats are 0..{rules.players - 1}, not {human}")
        seed = secrets.randbits(63) if seed is None else seed
        state = GameState.new_game(rules, random.Random(f"{seed}/dealer"))
        it = iter(levels)
        specs: list[str | None] = [None if s == human else next(it) for s in range(rules.players)]
        others = iter(BOT_NAMES)
        mine = name or default_name(human)
        names = [mine if s == human else next(others) for s in range(rules.players)]
        return cls(rules, state, human, names, specs, seed, named=bool(name))

    def __post_init__(self) -> None:
        if not self.bots:
            self.bots = [
                None
                if spec is None
                else make_bot(spec, rng=random.Random(f"{self.seed}/bot/{seat}"))
                for seat, spec in enumerate(self.specs)
            ]

    # ---------------------------------------------------------------- play

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    def deal_if_needed(self) -> bool:
        """Deal the next hand if one is due; ``True`` if it dealt. Each hand's deal comes
        from the seed and the hand's number, so a resumed game deals the same cards."""
        if self.state.phase != DEAL:
            return False
        self.state.deal_random(random.Random(f"{self.seed}/hand/{len(self.state.history)}"))
        return True

    def to_act(self) -> int:
        return self.state.current_player()

    def human_to_act(self) -> bool:
        return self.state.phase in (BID, PLAY) and self.state.to_act == self.human

    def bot_move(self) -> int:
        """Let the bot to act choose (from its own view only) and apply its action."""
        seat = self.state.to_act
        bot = self.bots[seat]
        assert bot is not None, "the human's seat has no bot"
        action = bot.act(self.state.view(seat))
        self.state.apply(action)
        return action

    def play(self, action: int) -> None:
        """Apply the human's action; raises ``IllegalActionError`` and changes nothing."""
        self.state.apply(action)

    def hint(self) -> int:
        """What the strongest registered bot would do in the human's place."""
        return self.advice()[0].action

    def advice(self) -> tuple[Advice, Line]:
        """The strongest bot's move for the human, with its figures, and what the move
        does (:mod:`pitch.bots.explain`)."""
        view = self.state.view(self.human)
        advice = make_bot(strongest_level(), rng=random.Random()).advise(view)
        return advice, explain(view, advice.action)

    def finish(self) -> None:
        """Tell every bot the game is over (or stopped)."""
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                bot.game_over(self.state.view(seat))

    @property
    def shown_names(self) -> list[str]:
        """The names as the terminal shows them: "You" (translated) for a player who
        gave no name; the stored :attr:`names` stay language-neutral."""
        if self.named:
            return list(self.names)
        return [_("You") if s == self.human else n for s, n in enumerate(self.names)]

    @property
    def seating(self) -> Seating:
        return Seating(self.rules, self.shown_names)

    def side_name(self, side: int) -> str:
        return self.seating.side_name(side)

    # ------------------------------------------------------- save / resume

    def to_record(self, lang: str = "en") -> dict[str, Any]:
        st = self.state
        extra: dict[str, Any] = {
            "players": list(self.names),
            "human": self.human,
            "bots": list(self.specs),
            "named": self.named,
            "seed": self.seed,
            "lang": lang,
            "app": "pitch play",
        }
        if st.phase != OVER:
            extra["in_progress"] = {
                "dealer": st.dealer,
                "deal": (
                    None
                    if st.phase == DEAL
                    else [[card_str(c) for c in cards_of(m)] for m in st.dealt]
                ),
                "bids": [[s, b] for s, b in st.bids],
                "cards": [card_str(c) for t in st.tricks for c in t.cards]
                + [card_str(c) for c in st.trick],
            }
        return game_record(st, **extra)

    def save(self, path: Path, lang: str = "en") -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(dumps(self.to_record(lang)) + "\n", encoding="utf-8")
        tmp.replace(path)  # never leave a half-written file behind

    @classmethod
    def resume(cls, path: Path) -> tuple[Session, str]:
        """Load a saved game; returns it with the language it was played in.
        Raises ``RecordError`` with a message fit for the player."""
        recs = read_records(path)
        if len(recs) != 1:
            raise RecordError(f"{path}: a saved game holds one game, not {len(recs)}")
        return cls.from_record(recs[0])

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> tuple[Session, str]:
        for key in ("players", "human", "bots", "seed"):
            if key not in rec:
                raise RecordError(
                    f"this is a game record, not a saved game of 'pitch play' (no {key!r}); "
                    "use 'pitch replay' to watch it"
                )
        state = replay_record(rec)
        rules = state.rules
        names, human, specs, seed = rec["players"], rec["human"], rec["bots"], rec["seed"]
        n = rules.players
        if not (
            isinstance(names, list)
            and len(names) == n
            and all(isinstance(x, str) for x in names)
            and isinstance(human, int)
            and 0 <= human < n
            and isinstance(specs, list)
            and len(specs) == n
            and isinstance(seed, int)
        ):
            raise RecordError("the saved game's players, human seat, bots or seed are malformed")
        for s, spec in enumerate(specs):
            if (spec is None) != (s == human) or (spec is not None and not isinstance(spec, str)):
                raise RecordError(f"seat {s} needs a bot name (and only the human seat none)")
            if spec is not None and not known_level(spec):
                raise RecordError(
                    f"seat {s} was played by bot {spec!r}, which this installation lacks; "
                    f"known: {', '.join(sorted([*BOTS, *ALIASES]))}"
                )
        prog = rec.get("in_progress")
        if prog is not None and state.phase != OVER:
            state = _continue_hand(rules, state, rec, prog)
        lang = rec.get("lang")
        named = rec.get("named", True) is not False  # saves from before: as stored
        session = cls(rules, state, human, names, specs, seed, named=named)
        return session, lang if isinstance(lang, str) else "en"


def _continue_hand(rules: Rules, state: GameState, rec: dict[str, Any], prog: object) -> GameState:
    if not isinstance(prog, dict):
        raise RecordError("'in_progress' must be an object")
    dealer = prog.get("dealer")
    if not rec["hands"]:
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise RecordError(f"in_progress: dealer must be a seat 0..{rules.players - 1}")
        state = GameState(rules, dealer=dealer)
    elif dealer != state.dealer:
        raise RecordError(f"in_progress: dealer is {dealer!r}; expected {state.dealer} (R2.4)")
    deal = prog.get("deal")
    if deal is None:
        return state
    try:
        if not isinstance(deal, list):
            raise RecordError("in_progress: 'deal' must list each seat's cards")
        masks = []
        for cards in deal:
            m = 0
            for t in cards:
                m |= 1 << parse_card(t)
            masks.append(m)
        state.deal(masks)
        for entry in prog.get("bids", []):
            if state.phase != BID:
                raise RecordError("in_progress: a bid after the auction ended")
            seat, bid = entry
            if seat != state.to_act:
                raise RecordError(f"in_progress: a bid by seat {seat}, not {state.to_act} (R3.1)")
            state.apply(BID_BASE + bid)
        for t in prog.get("cards", []):
            state.apply(parse_card(t))
    except RecordError:
        raise
    except (ValueError, TypeError) as e:
        raise RecordError(f"in_progress: {e}") from None
    return state
