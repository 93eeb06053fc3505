"""The game state machine: deal (R2), auction (R3), play (R4), scoring (R5), end (R6).

The API follows OpenSpiel and python-chess:

* ``current_player()`` is a seat, :data:`CHANCE` while cards are being dealt, or
  :data:`TERMINAL` once the game is won;
* ``legal_actions()`` is a cheap view (``a in state.legal_actions()``), and
  ``legal_mask()`` the same as a raw int over the action ids of :mod:`actions`;
* ``apply(action)`` checks legality and raises :class:`IllegalActionError` naming
  the rule, leaving the state unchanged; ``apply_unchecked(action)`` is the fast
  path for search, which must only be given legal actions;
* ``copy()`` and ``push(action)``/``pop()`` are snapshots of a few ints and lists.
"""

from __future__ import annotations

import operator
import random
import secrets
from collections.abc import Sequence
from typing import Final, NoReturn

from pitch.engine import refusals
from pitch.engine.actions import BID_BASE, NUM_ACTIONS, action_str
from pitch.engine.base import BID as BID
from pitch.engine.base import CHANCE as CHANCE
from pitch.engine.base import DEAL as DEAL
from pitch.engine.base import HAND_SIZE as HAND_SIZE
from pitch.engine.base import OVER as OVER
from pitch.engine.base import PHASE_NAMES as PHASE_NAMES
from pitch.engine.base import PLAY as PLAY
from pitch.engine.base import TERMINAL as TERMINAL
from pitch.engine.base import TRICKS_PER_HAND as TRICKS_PER_HAND
from pitch.engine.base import HandRecord as HandRecord
from pitch.engine.base import LegalActions as LegalActions
from pitch.engine.base import Trick as Trick
from pitch.engine.cards import BIT, FULL_DECK, NUM_CARDS, SUIT_MASK, SUIT_NAMES, SUIT_OF
from pitch.engine.errors import IllegalActionError, PitchError
from pitch.engine.legality import bid_mask as bid_mask
from pitch.engine.legality import deal_refusal, english, refusal
from pitch.engine.refusals import Refusal
from pitch.engine.rules import Rules
from pitch.engine.scoring import HandResult, score_positional
from pitch.engine.views import PlayerView, public_history, seen_cards

_new_tuple: Final = tuple.__new__


def game_end(rules: Rules, result: HandResult, scores: Sequence[int]) -> str | None:
    """R6.2: why the hand scored in ``result`` (``scores``: each side's score after it)
    ends the game, as a key of :data:`pitch.engine.rules.END_TEXTS`, or ``None`` to play
    on. Only the pitcher's side can go out, at the end of a hand it pitched."""
    pside = rules.side_of(result.pitcher)
    if (  # Smudge (house rule): bid 4, took all four points, from a score of 0 or more
        rules.smudge
        and result.bid == 4
        and result.high == result.low == result.jack == result.game == pside
        and scores[pside] - result.delta[pside] >= 0
    ):
        return "smudge"
    if scores[pside] >= rules.target and (result.made or not rules.must_make_bid_to_win):
        return "target"
    return None


def deal_order(players: int, dealer: int) -> tuple[int, ...]:
    """R2.2: the seat that receives each card, three at a time from the dealer's left."""
    order: list[int] = []
    for _round in range(2):
        for i in range(1, players + 1):
            order.extend([(dealer + i) % players] * 3)
    return tuple(order)


_DEAL_ORDERS: Final = {(n, d): deal_order(n, d) for n in range(2, 8) for d in range(n)}
# deal_random's partial Fisher-Yates, precomputed per table and dealer: for the i-th
# card dealt, (i, the seat receiving it, how many undrawn cards remain).
_DEAL_PLANS: Final = {
    key: tuple((i, seat, NUM_CARDS - i) for i, seat in enumerate(order))
    for key, order in _DEAL_ORDERS.items()
}
_DECK: Final = tuple(range(NUM_CARDS))


class GameState:
    """A whole game of Pitch, from the first deal to the winner.

    >>> s = GameState(Rules(players=3))
    >>> s.deal_random(random.Random(1))
    >>> s.current_player(), s.legal_actions().texts()
    (1, ['pass', 'bid 1', 'bid 2', 'bid 3', 'bid 4'])
    """

    __slots__ = (
        "_low_holder",
        "_next",
        "_stack",
        "best_card",
        "best_seat",
        "bids",
        "captured",
        "contract",
        "dealer",
        "dealt",
        "hands",
        "high_bid",
        "high_bidder",
        "history",
        "lead_suit",
        "leader",
        "n",
        "ndealt",
        "num_sides",
        "phase",
        "pitcher",
        "rules",
        "scores",
        "side_of",
        "to_act",
        "trick",
        "trick_mask",
        "tricks",
        "trump",
        "winner",
    )

    rules: Rules
    n: int
    num_sides: int
    side_of: tuple[int, ...]
    scores: list[int]
    dealer: int
    phase: int
    to_act: int
    hands: list[int]
    dealt: list[int]
    ndealt: int
    bids: tuple[tuple[int, int], ...]
    high_bid: int
    high_bidder: int
    pitcher: int
    contract: int
    trump: int
    leader: int
    trick: tuple[int, ...]
    trick_mask: int
    best_card: int
    best_seat: int
    lead_suit: int
    tricks: tuple[Trick, ...]
    captured: list[int]
    history: tuple[HandRecord, ...]
    winner: int | None

    def __init__(self, rules: Rules | None = None, *, dealer: int = 0) -> None:
        rules = rules if rules is not None else Rules()
        if not isinstance(rules, Rules):
            raise PitchError(f"rules must be a Rules object, not {type(rules).__name__}")
        n = rules.players
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            raise PitchError(f"R2.4: the dealer must be a seat 0..{n - 1}, not {dealer!r}")
        self.rules = rules
        self.n = n
        self.num_sides = rules.num_sides
        self.side_of = tuple(rules.side_of(s) for s in range(n))
        self._next = tuple(rules.play_order(s)[1] for s in range(n))  # R1.3: the left
        self._low_holder = rules.low_to == "holder"
        self.scores = [0] * self.num_sides
        self.dealer = dealer
        self.history = ()
        self.winner = None
        self._stack: list[tuple[object, ...]] = []
        self._new_hand()

    @classmethod
    def new_game(cls, rules: Rules | None = None, rng: random.Random | None = None) -> GameState:
        """A new game with the first dealer drawn at random (R2.4); ``secrets``-grade
        randomness when no ``rng`` is given."""
        rules = rules if rules is not None else Rules()
        r = rng if rng is not None else secrets.SystemRandom()
        return cls(rules, dealer=r.randrange(rules.players))

    def _new_hand(self) -> None:
        n = self.n
        self.phase = DEAL
        self.to_act = CHANCE
        self.hands = [0] * n
        self.dealt = [0] * n
        self.ndealt = 0
        self.bids = ()
        self.high_bid = 0
        self.high_bidder = -1
        self.pitcher = -1
        self.contract = 0
        self.trump = -1
        self.leader = -1
        self.trick = ()
        self.trick_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.lead_suit = -1
        self.tricks = ()
        self.captured = [0] * self.num_sides

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` while dealing, :data:`TERMINAL` when over."""
        p = self.phase
        if p == DEAL:
            return CHANCE
        if p == OVER:
            return TERMINAL
        return self.to_act

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (a key of :data:`pitch.engine.rules.END_TEXTS`, from its
        last hand), or ``None`` while it goes on."""
        if self.winner is None or not self.history:
            return None
        h = self.history[-1]
        return game_end(self.rules, h.result, h.scores) if h.result is not None else None

    @property
    def hand_number(self) -> int:
        """0-based index of the hand in progress (or of the last one, when over)."""
        return len(self.history) - (1 if self.phase == OVER else 0)

    @property
    def last_result(self) -> HandResult | None:
        for h in reversed(self.history):
            if h.result is not None:
                return h.result
        return None

    def legal_mask(self) -> int:
        """Legal action ids as an int mask (bit ``a`` set when action ``a`` is legal)."""
        p = self.phase
        if p == PLAY:
            hand = self.hands[self.to_act]
            if not self.trick:
                return hand
            follow = hand & SUIT_MASK[self.lead_suit]
            if follow:
                # R4.3: follow suit or trump (trump led: trump only).
                return follow | (hand & SUIT_MASK[self.trump])
            return hand  # R4.4
        if p == BID:
            return self._bid_mask()
        if p == DEAL:
            dealt = 0
            for m in self.dealt:
                dealt |= m
            return FULL_DECK & ~dealt
        return 0

    def _bid_mask(self) -> int:
        return bid_mask(self.rules, self.to_act == self.dealer, self.high_bid)

    def legal_actions(self) -> LegalActions:
        return LegalActions(self.legal_mask())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: each undealt card with its (uniform) probability."""
        if self.phase != DEAL:
            return []
        mask = self.legal_mask()
        p = 1.0 / mask.bit_count()
        return [(c, p) for c in LegalActions(mask)]

    def can_apply(self, action: int) -> bool:
        return (
            isinstance(action, int)
            and 0 <= action < NUM_ACTIONS
            and bool(self.legal_mask() >> action & 1)
        )

    # ----------------------------------------------------------------- actions

    def apply(self, action: int) -> None:
        """Apply a legal action, or raise :class:`IllegalActionError` and change nothing."""
        if type(action) is not int:
            action = self._as_action(action)
        if self.phase == PLAY:
            # The hot case, checked inline rather than through legal_mask() (same test):
            # a card in the hand (R4.2) that leads, follows suit, is trump, or is played
            # by a hand void in the suit led (R4.3, R4.4).
            hand = self.hands[self.to_act]
            if 0 <= action < NUM_CARDS and hand >> action & 1:
                suit = SUIT_OF[action]
                lead = self.lead_suit
                if (
                    not self.trick
                    or suit == lead
                    or suit == self.trump
                    or not hand & SUIT_MASK[lead]
                ):
                    self._play(action)
                    return
        elif 0 <= action < NUM_ACTIONS and self.legal_mask() >> action & 1:
            self.apply_unchecked(action)
            return
        self.verify(action)
        raise AssertionError("unreachable: verify() accepted an action apply() refused")

    def _as_action(self, action: object) -> int:
        """Accept any integral action id (numpy ints included), never bools or floats;
        anything else is refused like any illegal action (rule, seat, legal actions)."""
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            self.verify(action)  # type: ignore[arg-type]
        return operator.index(action)  # type: ignore[arg-type]

    def verify(self, action: int) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) if ``action`` is illegal."""
        phase = self.phase
        if phase == DEAL:
            dealt = 0
            for m in self.dealt:
                dealt |= m
            why = deal_refusal(dealt, action)
        else:
            why = refusal(self.view(self.to_act if phase != OVER else 0), action)
        if why is not None:
            self._refuse(why, action)

    def _refuse(self, why: Refusal, action: object) -> NoReturn:
        # Nobody is "to act" while dealing (the chance player) or after the game.
        phase = self.phase
        seat = None if phase in (DEAL, OVER) else self.to_act
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            text = f"take action {action!r}"
        elif phase == DEAL and action < NUM_CARDS:
            text = f"deal {action_str(action)}"
        elif action < NUM_CARDS:
            text = f"play {action_str(action)}"
        else:
            text = action_str(action)
        legal = self.legal_actions().texts()
        raise IllegalActionError(why.rule, seat, text, english(why), legal, why)

    def apply_unchecked(self, action: int) -> None:
        """The fast path: apply an action known to be legal. Illegal input corrupts state."""
        p = self.phase
        if p == PLAY:
            self._play(action)
        elif p == BID:
            self._bid(action - BID_BASE)
        elif p == DEAL:
            self._deal_card(action)
        else:
            self._refuse(Refusal("R6.2", refusals.GAME_OVER), action)

    def _deal_card(self, card: int) -> None:
        seat = _DEAL_ORDERS[self.n, self.dealer][self.ndealt]
        self.hands[seat] |= BIT[card]
        self.dealt[seat] |= BIT[card]
        self.ndealt += 1
        if self.ndealt == HAND_SIZE * self.n:
            self._start_auction()

    def deal_random(self, rng: random.Random | None = None) -> None:
        """R2.2: shuffle and deal a whole hand (``secrets``-grade without ``rng``)."""
        if self.phase != DEAL or self.ndealt:
            why = Refusal("R2.2", refusals.HAND_UNDER_WAY)
            raise IllegalActionError(why.rule, None, "deal", english(why), [], why)
        rand = (rng if rng is not None else secrets.SystemRandom()).random
        deck = list(_DECK)
        hands = self.hands
        bits = BIT
        # A partial Fisher-Yates shuffle: only the cards dealt need drawing.
        for i, seat, left in _DEAL_PLANS[self.n, self.dealer]:
            j = i + int(rand() * left)
            c = deck[j]
            deck[j] = deck[i]
            hands[seat] |= bits[c]
        self.dealt = hands[:]
        self.ndealt = HAND_SIZE * self.n
        self._start_auction()

    def deal(self, hands: Sequence[int]) -> None:
        """Deal the given masks (one per seat, six cards each, disjoint)."""
        if self.phase != DEAL or self.ndealt:
            why = Refusal("R2.2", refusals.HAND_UNDER_WAY)
            raise IllegalActionError(why.rule, None, "deal", english(why), [], why)
        if len(hands) != self.n:
            raise PitchError(f"R2.2: a deal needs one hand per seat ({self.n}), got {len(hands)}")
        seen = 0
        for seat, m in enumerate(hands):
            if not isinstance(m, int) or m < 0 or m > FULL_DECK:
                raise PitchError(f"R2.2: seat {seat}'s hand is not a card mask: {m!r}")
            if m.bit_count() != HAND_SIZE:
                raise PitchError(
                    f"R2.2: seat {seat} must be dealt {HAND_SIZE} cards, not {m.bit_count()}"
                )
            if seen & m:
                raise PitchError(f"R2.1: seat {seat} was dealt a card dealt to another seat")
            seen |= m
        self.hands = list(hands)
        self.dealt = list(hands)
        self.ndealt = HAND_SIZE * self.n
        self._start_auction()

    def _start_auction(self) -> None:
        self.phase = BID
        self.to_act = self._next[self.dealer]  # R3.1

    def _bid(self, bid: int) -> None:
        seat = self.to_act
        self.bids += ((seat, bid),)
        dealer = self.dealer
        if bid and (bid > self.high_bid or seat == dealer):
            # A higher bid (R3.3) or the dealer's steal (R3.6).
            self.high_bid = bid
            self.high_bidder = seat
        if bid == 4 or seat == dealer:  # R3.4, R3.1
            if self.high_bid == 0:
                self._throw_in()
            else:
                self.pitcher = self.leader = self.to_act = self.high_bidder  # R3.7, R4.1
                self.contract = self.high_bid
                self.phase = PLAY
        else:
            self.to_act = self._next[seat]

    def _throw_in(self) -> None:
        """House rule (all_pass='redeal'): everyone passed; the next dealer deals."""
        self.history += (
            HandRecord(
                dealer=self.dealer,
                deal=tuple(self.dealt),
                bids=self.bids,
                pitcher=None,
                bid=None,
                trump=None,
                tricks=(),
                result=None,
                scores=tuple(self.scores),
            ),
        )
        self.dealer = self._next[self.dealer]
        self._new_hand()

    def _play(self, card: int) -> None:
        seat = self.to_act
        bit = BIT[card]
        self.hands[seat] ^= bit
        trick = self.trick
        if not trick:
            suit = SUIT_OF[card]
            if self.trump < 0:
                self.trump = suit  # R4.1: the pitcher's first card sets trump.
            self.lead_suit = suit
            self.best_card = card
            self.best_seat = seat
            self.trick_mask = bit
            self.trick = (card,)
            self.to_act = self._next[seat]  # 2+ players: a lead never ends a trick
            return
        # R4.5: a trump beats any non-trump; otherwise higher of the suit led wins.
        best = self.best_card
        suit = SUIT_OF[card]
        if suit == SUIT_OF[best]:
            if card > best:
                self.best_card = card
                self.best_seat = seat
        elif suit == self.trump:
            self.best_card = card
            self.best_seat = seat
        self.trick_mask |= bit
        trick += (card,)
        if len(trick) < self.n:
            self.trick = trick
            self.to_act = self._next[seat]
            return
        winner = self.best_seat
        self.captured[self.side_of[winner]] |= self.trick_mask
        # tuple.__new__ skips the NamedTuple's Python-level __new__ (same Trick value).
        tricks = self.tricks = (*self.tricks, _new_tuple(Trick, (self.leader, trick, winner)))
        self.trick = ()
        if len(tricks) == TRICKS_PER_HAND:
            self._end_hand()
        else:
            self.leader = self.to_act = winner  # R4.6

    def _end_hand(self) -> None:
        result = score_positional(
            self.num_sides,
            self.side_of,
            self.trump,
            self.dealt,
            self.captured,
            self.pitcher,
            self.contract,
            self._low_holder,
        )
        scores = self.scores
        for side, d in enumerate(result.delta):
            scores[side] += d
        # Positional, in HandRecord's field order, without its Python-level __new__.
        self.history += (
            _new_tuple(
                HandRecord,
                (
                    self.dealer,
                    tuple(self.dealt),
                    self.bids,
                    self.pitcher,
                    self.contract,
                    self.trump,
                    self.tricks,
                    result,
                    tuple(scores),
                ),
            ),
        )
        if game_end(self.rules, result, scores) is not None:
            self.winner = self.side_of[self.pitcher]
            self.phase = OVER
            self.to_act = TERMINAL
            return
        self.dealer = self._next[self.dealer]  # R2.4
        self._new_hand()

    # ------------------------------------------------------------ copy / undo

    def _snapshot(self) -> tuple[object, ...]:
        return (
            self.scores[:],
            self.dealer,
            self.phase,
            self.to_act,
            self.hands[:],
            self.dealt[:],
            self.ndealt,
            self.bids,
            self.high_bid,
            self.high_bidder,
            self.pitcher,
            self.contract,
            self.trump,
            self.leader,
            self.trick,
            self.trick_mask,
            self.best_card,
            self.best_seat,
            self.lead_suit,
            self.tricks,
            self.captured[:],
            self.history,
            self.winner,
        )

    def _restore(self, snap: tuple[object, ...]) -> None:
        (
            self.scores,
            self.dealer,
            self.phase,
            self.to_act,
            self.hands,
            self.dealt,
            self.ndealt,
            self.bids,
            self.high_bid,
            self.high_bidder,
            self.pitcher,
            self.contract,
            self.trump,
            self.leader,
            self.trick,
            self.trick_mask,
            self.best_card,
            self.best_seat,
            self.lead_suit,
            self.tricks,
            self.captured,
            self.history,
            self.winner,
        ) = snap  # type: ignore[assignment]

    def copy(self) -> GameState:
        """An independent copy: a handful of ints and short lists, no deepcopy."""
        new = object.__new__(GameState)
        new.rules = self.rules
        new.n = self.n
        new.num_sides = self.num_sides
        new.side_of = self.side_of
        new._next = self._next
        new._low_holder = self._low_holder
        new._stack = []
        new._restore(self._snapshot())
        return new

    def push(self, action: int) -> None:
        """Apply ``action`` (checked) and remember how to undo it with :meth:`pop`."""
        snap = self._snapshot()
        self.apply(action)
        self._stack.append(snap)

    def push_unchecked(self, action: int) -> None:
        snap = self._snapshot()
        self.apply_unchecked(action)
        self._stack.append(snap)

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        if not self._stack:
            raise PitchError("pop() without a matching push()")
        self._restore(self._stack.pop())

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: its own cards and everything public, nothing else."""
        n = self.n
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"R1.3: seats are 0..{n - 1}, not {seat!r}")
        trump = self.trump
        tricks = self.tricks
        played_by, voids = seen_cards(tricks, self.leader, self.trick, n, trump)
        played = 0
        for m in played_by:
            played |= m
        phase = self.phase
        cp = self.current_player()
        return PlayerView(
            rules=self.rules,
            seat=seat,
            phase=phase,
            current_player=cp,
            dealer=self.dealer,
            scores=tuple(self.scores),
            hand=self.hands[seat] if phase != OVER else 0,
            dealt=self.dealt[seat] if cp != CHANCE else 0,
            hand_sizes=tuple(h.bit_count() for h in self.hands) if cp != CHANCE else (0,) * n,
            bids=self.bids,
            high_bid=self.high_bid,
            high_bidder=self.high_bidder,
            pitcher=self.pitcher if phase in (PLAY, OVER) else -1,
            contract=self.contract,
            trump=trump,
            leader=self.leader,
            trick=self.trick,
            holder=self.best_seat if self.trick else -1,
            tricks=tricks,
            played=played,
            played_by=tuple(played_by),
            voids=tuple(voids),
            legal=self.legal_mask() if cp == seat and phase in (BID, PLAY) else 0,
            history=public_history(self.history, seat),
            winner=self.winner,
        )

    def played_mask(self) -> int:
        """Cards played so far in this hand (all of them public)."""
        m = self.trick_mask if self.trick else 0
        for side_mask in self.captured:
            m |= side_mask
        return m

    def __repr__(self) -> str:
        trump = SUIT_NAMES[self.trump] if self.trump >= 0 else "-"
        return (
            f"<GameState {self.n}p {self.phase_name} hand={self.hand_number} "
            f"dealer={self.dealer} to_act={self.current_player()} trump={trump} "
            f"scores={self.scores}>"
        )
