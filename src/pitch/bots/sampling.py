"""Determinizations for search that also agree with the auction.

:func:`pitch.engine.resample` deals the unseen cards consistently with the cards
played and the voids shown; it ignores what the bids say. A seat that bid 3
rarely holds a hand with no trump. :func:`sample_state` reads the auction as a
sensible bidder would have played it: it resamples a few times and keeps the
deal under which the heuristic bidder (the model of the other seats) would
have made the bids that were made, or the closest one found. It reads only the
view, so it cannot leak hidden cards.
"""

from __future__ import annotations

import random

from pitch.bots.heuristic import state_action
from pitch.engine import PlayerView, resample
from pitch.engine.actions import BID_BASE
from pitch.engine.cards import SUIT_MASK
from pitch.engine.resample import rebuild, sample_hidden
from pitch.engine.state import GameState

DEFAULT_TRIES = 6


def bid_mismatch(view: PlayerView, dealt: list[int], limit: int) -> int:
    """How far the heuristic's bids on ``dealt`` are from the bids made by the other
    seats (sum of bid differences), stopping early once it reaches ``limit``."""
    if not any(seat != view.seat for seat, _ in view.bids):
        return 0
    s = GameState(view.rules, dealer=view.dealer)
    s.scores = list(view.scores)
    s.hands = list(dealt)
    s.dealt = list(dealt)
    s.ndealt = 6 * view.rules.players
    s._start_auction()
    miss = 0
    for seat, bid in view.bids:
        if seat != view.seat:
            model = state_action(s) - BID_BASE
            miss += abs(model - bid)
            if miss >= limit:
                return miss
        s.apply_unchecked(BID_BASE + bid)
    return miss


def _void_cards(voids: int) -> int:
    return sum(SUIT_MASK[s] for s in range(4) if voids >> s & 1)


def sample_state(
    view: PlayerView, rng: random.Random, tries: int = DEFAULT_TRIES, slack: int = 1
) -> GameState:
    """A determinization of ``view`` (see the module docstring): the first deal whose
    bid mismatch is at most ``slack`` within ``tries`` draws, else the closest."""
    if not any(seat != view.seat for seat, _ in view.bids):
        return resample(view, rng)
    n = view.rules.players
    need = list(view.hand_sizes)
    need[view.seat] = 0
    forbidden = [_void_cards(v) for v in view.voids]
    unseen = view.unseen
    best: list[int] | None = None
    best_miss = 1 << 30
    for _ in range(max(1, tries)):
        hidden = sample_hidden(unseen, need, forbidden, rng)
        dealt = [hidden[t] | view.played_by[t] for t in range(n)]
        dealt[view.seat] = view.dealt
        miss = bid_mismatch(view, dealt, best_miss)
        if miss < best_miss:
            best, best_miss = dealt, miss
            if miss <= slack:
                break
    assert best is not None
    return rebuild(view, best)
