"""``heuristic`` (club level): a rule-based player, and the rollout policy of search.

Bidding: estimate, for each suit, the points the hand takes as pitcher (High from
the top trump and how many higher ones may be out, Low from the bottom trump,
the Jack and its guards, Game from trump length and tens; a partner adds a
little) and bid the highest level the best estimate covers with a margin. The
margin shrinks when an opponent could go out by pitching (R6.2: only the
pitcher's side can win, so taking the auction denies it) or when pitching would
take us out; the forced dealer (R3.5) bids the minimum; the dealer steals (R3.6)
when the hand covers the high bid.

Play: the pitcher leads the top of its best suit (R4.1), leaders draw trump with
a master trump, lead a master ace on the pitching side, otherwise a low card
that gives nothing away; followers feed counters, the Jack and a low trump to a
partner who holds the trick safely, win a trick worth taking with the cheapest
safe winner (capturing Low/Jack/Game), and otherwise throw the card worth least.
"""

from __future__ import annotations

import random
from typing import ClassVar

from pitch.bots.base import Bot
from pitch.bots.options import Opt
from pitch.bots.policy import choose_bid, choose_card
from pitch.engine import PlayerView
from pitch.engine.actions import BID_BASE
from pitch.engine.cards import FULL_DECK
from pitch.engine.fast import random_bid_value, random_playout
from pitch.engine.state import BID, GameState


def view_action(view: PlayerView) -> int:
    """The heuristic's action for a view (its seat must be to act)."""
    rules = view.rules
    n = rules.players
    side_of = tuple(rules.side_of(s) for s in range(n))
    if view.phase == BID:
        bid = choose_bid(
            hand=view.hand,
            seat=view.seat,
            dealer=view.dealer,
            legal_bids=view.legal >> BID_BASE,
            high_bid=view.high_bid,
            high_bidder=view.high_bidder,
            scores=view.scores,
            side_of=side_of,
            target=rules.target,
            players=n,
            partnerships=rules.partnerships,
            must_make=rules.must_make_bid_to_win,
        )
        return BID_BASE + bid
    return choose_card(
        hand=view.hand,
        legal=view.legal & FULL_DECK,
        seat=view.seat,
        n=n,
        side_of=side_of,
        pitcher=view.pitcher,
        trump=view.trump,
        trick=view.trick,
        leader=view.leader,
        played=view.played,
        players=n,
        partnerships=rules.partnerships,
    )


def state_action(state: GameState) -> int:
    """The heuristic's action for the seat to act in ``state``, reading only that
    seat's cards and public information (the same inputs as :func:`view_action`)."""
    seat = state.to_act
    rules = state.rules
    if state.phase == BID:
        return BID_BASE + choose_bid(
            hand=state.hands[seat],
            seat=seat,
            dealer=state.dealer,
            legal_bids=state.legal_mask() >> BID_BASE,
            high_bid=state.high_bid,
            high_bidder=state.high_bidder,
            scores=state.scores,
            side_of=state.side_of,
            target=rules.target,
            players=state.n,
            partnerships=rules.partnerships,
            must_make=rules.must_make_bid_to_win,
        )
    return choose_card(
        hand=state.hands[seat],
        legal=state.legal_mask(),
        seat=seat,
        n=state.n,
        side_of=state.side_of,
        pitcher=state.pitcher,
        trump=state.trump,
        trick=state.trick,
        leader=state.leader,
        played=state.played_mask(),
        players=state.n,
        partnerships=rules.partnerships,
    )


def heuristic_rollout(state: GameState, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Finish the hand in progress of ``state`` (not modified) with the heuristic for
    every seat; return the score change per side and the pitcher's seat (-1 when the
    hand was thrown in). The search bots call rollouts only through a function of
    this shape, so a faster one can be swapped in."""
    s = state.copy()
    before = len(s.history)
    while len(s.history) == before:
        s.apply_unchecked(state_action(s))
    return hand_outcome(s)


def hand_outcome(state: GameState) -> tuple[tuple[int, ...], int]:
    """Score change per side and pitcher of the last hand in ``state.history``."""
    res = state.history[-1].result
    if res is None:  # thrown in (house rule)
        return (0,) * state.num_sides, -1
    return res.delta, res.pitcher


def random_rollout(state: GameState, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Uniformly random rollout (the engine's fast path), same shape as the heuristic's."""
    if state.phase == BID:
        state = state.copy()
        before = len(state.history)
        while state.phase == BID:
            state.apply_unchecked(BID_BASE + random_bid_value(state, rng))
        if len(state.history) > before:
            return hand_outcome(state)
    return random_playout(state, rng), state.pitcher


class HeuristicBot(Bot):
    """Rule-based bot (see the module docstring). Deterministic: it ignores its generator."""

    name: ClassVar[str] = "heuristic"
    level: ClassVar[str] = "club"
    # Declared empty, so that ``heuristic:x=1`` is refused naming the options (none).
    OPTIONS: ClassVar[dict[str, Opt]] = {}

    def act(self, view: PlayerView) -> int:
        return view_action(view)
