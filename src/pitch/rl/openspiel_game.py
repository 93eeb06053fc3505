"""Pitch as an OpenSpiel game, ``python_pitch``, registered with ``pyspiel`` on import.

>>> import pyspiel
>>> import pitch.rl.openspiel_game
>>> game = pyspiel.load_game("python_pitch(players=3)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

The deal is 6 x players chance nodes, one card each in the engine's dealing order
(R2.2). Parameters: every table option of :class:`~pitch.engine.Rules`, plus
``max_hands`` (the game ends after this many hands, default 1: one hand),
``returns`` (``"score"``: each player's side's score change over the game;
``"win"``: +1/-1 when a side reaches the target, 0 if cut short) and ``dealer``
(the first dealer). The reward model is terminal. Information state: this hand's
full public history plus the player's dealt cards (perfect recall within a hand;
earlier hands enter as scores in the tensor and in full in the string).
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import numpy as np
import pyspiel

from pitch.engine import (
    CHANCE,
    DEAL,
    NUM_ACTIONS,
    NUM_CARDS,
    GameState,
    LegalActions,
    PlayerView,
    Rules,
    action_str,
    card_str,
    format_cards,
    resample,
)
from pitch.rl.encoding import Encoding, mask_bits

SHORT_NAME = "python_pitch"
MAX_HAND_POINTS = 4  # R5.1-R5.4: High, Low, Jack, Game; R5.6: a set back costs the bid (<= 4)

DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Rules)} | {
    "max_hands": 1,
    "returns": "score",
    "dealer": 0,
}


def _game_type(utility: Any = pyspiel.GameType.Utility.GENERAL_SUM) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Pitch (Auction Pitch, Setback)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=7,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = _game_type()


class PitchGame(pyspiel.Game):
    """The game: its ``Rules`` and episode settings, parsed from OpenSpiel parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = DEFAULTS | dict(params or {})
        self.rules = Rules(**{f.name: p[f.name] for f in fields(Rules)})
        self.max_hands = p["max_hands"]
        self.returns_mode = p["returns"]
        self.first_dealer = p["dealer"]
        if not (isinstance(self.max_hands, int) and self.max_hands >= 1):
            raise ValueError(f"max_hands must be a positive whole number, not {self.max_hands!r}")
        if self.returns_mode not in ("score", "win"):
            raise ValueError(f"returns must be 'score' or 'win', not {self.returns_mode!r}")
        n = self.rules.players
        if not 0 <= self.first_dealer < n:
            raise ValueError(f"R2.4: dealer must be a seat 0..{n - 1}, not {self.first_dealer!r}")
        zero_sum = self.returns_mode == "win" and self.rules.num_sides == 2 and n == 2
        bound = 1.0 if self.returns_mode == "win" else float(MAX_HAND_POINTS * self.max_hands)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            # Per hand: n bids and 6 cards each (chance nodes are counted apart).
            max_game_length=7 * n * self.max_hands,
        )
        utility = pyspiel.GameType.Utility
        super().__init__(_game_type(utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM), info, p)

    def new_initial_state(self) -> PitchState:
        return PitchState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PitchObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PitchObserver(self.rules, perfect_recall=recall, params=params)


class _Engine:
    """Holds the engine state so that OpenSpiel's clone (a deepcopy of each attribute)
    takes the engine's cheap ``copy()`` instead of walking the object graph."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.copy())


class PitchState(pyspiel.State):
    """An OpenSpiel state over an engine :class:`~pitch.engine.GameState`."""

    def __init__(self, game: PitchGame, engine: GameState | None = None) -> None:
        super().__init__(game)
        self._g = _Engine(engine or GameState(game.rules, dealer=game.first_dealer))
        self._base = tuple(self._g.state.scores)  # scores when this episode began
        self._max_hands = game.max_hands
        self._returns_mode = game.returns_mode

    @property
    def engine(self) -> GameState:
        return self._g.state

    def _over(self) -> bool:
        s = self._g.state
        return s.is_terminal() or (s.phase == DEAL and len(s.history) >= self._max_hands)

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        p = self._g.state.current_player()
        return int(pyspiel.PlayerId.CHANCE) if p == CHANCE else p

    def _legal_actions(self, player: int) -> list[int]:
        return list(LegalActions(self._g.state.legal_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._g.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._g.state.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return (
            f"deal {card_str(action)}" if player == pyspiel.PlayerId.CHANCE else action_str(action)
        )

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        s = self._g.state
        n = s.n
        if not self._over():
            return [0.0] * n
        side = s.side_of
        if self._returns_mode == "win":
            if s.winner is None:
                return [0.0] * n
            return [1.0 if side[p] == s.winner else -1.0 for p in range(n)]
        return [float(s.scores[side[p]] - self._base[side[p]]) for p in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PitchState:
        """A state consistent with what ``player_id`` knows (OpenSpiel's ISMCTS calls
        this), dealt by the engine's :func:`~pitch.engine.resample`."""
        try:
            seed = int(probability_sampler() * 2**53)
        except TypeError:
            seed = random.getrandbits(53)
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> PitchState:
        s = self._g.state
        view = s.view(player)
        new = resample(view, rng)
        new.history = view.history  # earlier hands are public; keeps the hand count
        out = PitchState(self.get_game(), new)
        out._base = self._base
        return out

    def __str__(self) -> str:
        s = self._g.state
        hands = " | ".join(format_cards(h) for h in s.hands)
        return f"{s!r} hands: {hands}"


def _history_text(view: PlayerView) -> str:
    parts = []
    for h in view.history:
        bids = "".join(str(b) for _, b in h.bids)
        tricks = ".".join("".join(card_str(c) for c in t.cards) for t in h.tricks)
        parts.append(f"d{h.dealer}b{bids}:{tricks}")
    return "/".join(parts)


class PitchObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``). Without perfect recall: the shared :class:`Encoding`. With it
    (information state), also the dealt cards and every trick of this hand."""

    def __init__(
        self, rules: Rules, *, perfect_recall: bool, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"python_pitch observers take no parameters, got {params}")
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.encoding = Encoding(rules)
        n = rules.players
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("view", self.encoding.size, (self.encoding.size,))
        ]
        if perfect_recall:
            pieces += [
                ("dealt", 52, (52,)),
                ("tricks", 6 * n * 52, (6, n, 52)),  # trick t: card of each relative seat
                ("trick_leaders", 6 * n, (6, n)),
                ("hand_number", 1, (1,)),
            ]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: PitchState, player: int) -> None:
        s = state.engine
        self.tensor.fill(0.0)
        if s.phase == DEAL:
            return  # nothing is known while the cards are coming out
        view = s.view(player)
        self.encoding.encode(view, out=self.dict["view"])
        if not self.perfect_recall:
            return
        n = self.rules.players
        self.dict["dealt"][:] = mask_bits(view.dealt)
        for t, trick in enumerate(view.tricks):
            self._trick(t, trick.leader, trick.cards, player, n)
        if view.trick:
            self._trick(len(view.tricks), view.leader, view.trick, player, n)
        self.dict["hand_number"][0] = len(view.history) / max(1, state._max_hands)

    def _trick(self, t: int, leader: int, cards: tuple[int, ...], me: int, n: int) -> None:
        self.dict["trick_leaders"][t, (leader - me) % n] = 1.0
        seat = leader
        for c in cards:
            self.dict["tricks"][t, (seat - me) % n, c] = 1.0
            seat = (seat + 1) % n

    def string_from(self, state: PitchState, player: int) -> str:
        s = state.engine
        if s.phase == DEAL:
            return f"p{player} dealing hand {len(s.history)}"
        v = s.view(player)
        bids = ",".join(f"{seat}:{b}" for seat, b in v.bids)
        trump = "cdhs"[v.trump] if v.trump >= 0 else "-"
        text = f"p{player} d{v.dealer} s{list(v.scores)} bids[{bids}] trump {trump}"
        if self.perfect_recall:
            tricks = ".".join("".join(card_str(c) for c in t.cards) for t in v.tricks)
            trick = "".join(card_str(c) for c in v.trick)
            return (
                f"{text} dealt[{format_cards(v.dealt)}] tricks[{tricks}|{trick}] "
                f"past[{_history_text(v)}]"
            )
        played = format_cards(v.played)
        trick = " ".join(card_str(c) for c in v.trick)
        return f"{text} hand[{format_cards(v.hand)}] played[{played}] trick[{trick}]"


def load(
    rules: Rules | None = None, *, max_hands: int = 1, returns: str = "score", dealer: int = 0
) -> Any:
    """``pyspiel.load_game("python_pitch", ...)`` for a ``Rules`` value."""
    params = (rules or Rules()).to_dict() | {
        "max_hands": max_hands,
        "returns": returns,
        "dealer": dealer,
    }
    return pyspiel.load_game(SHORT_NAME, params)


if SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
    pyspiel.register_game(GAME_TYPE, PitchGame)
