"""Determinization: deal the cards a seat cannot see, consistently with what it saw.

Search bots (PIMC, ISMCTS) call :func:`resample` to get full game states that
agree with a :class:`PlayerView`: the seat's own cards are kept, cards already
played stay where they were played, and no seat is given a suit it showed out of
(R4.3/R4.4). Cards nobody holds are the undealt rest of the deck (R2.3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pitch.engine.actions import BID_BASE
from pitch.engine.cards import BIT, SUIT_MASK, cards_of
from pitch.engine.errors import PitchError
from pitch.engine.state import BID, PLAY, GameState
from pitch.engine.views import PlayerView

_REJECTION_TRIES = 8
_GREEDY_TRIES = 200


def resample(view: PlayerView, rng: random.Random) -> GameState:
    """A full state, at the view's moment, consistent with everything the seat knows.

    Uniform over consistent deals when a few rejection tries succeed (always, when
    no seat has shown a void); otherwise a most-constrained-first random fill.
    """
    if view.phase not in (BID, PLAY):
        raise PitchError("resample needs a view taken during the auction or the play")
    n = view.rules.players
    need = list(view.hand_sizes)
    need[view.seat] = 0
    forbidden = [_suits_mask(v) for v in view.voids]
    hidden = sample_hidden(view.unseen, need, forbidden, rng)
    dealt = [hidden[t] | view.played_by[t] for t in range(n)]
    dealt[view.seat] = view.dealt
    return rebuild(view, dealt)


def rebuild(view: PlayerView, dealt: Sequence[int]) -> GameState:
    """Replay the view's public history of this hand on top of a full deal."""
    state = GameState(view.rules, dealer=view.dealer)
    state.scores = list(view.scores)
    # The finished hands are public (a thrown-in hand keeps the seat's own cards), so
    # the determinized state has the same history as the view and views of it agree.
    state.history = view.history
    state.hands = list(dealt)
    state.dealt = list(dealt)
    state.ndealt = 6 * view.rules.players
    state._start_auction()
    for _seat, bid in view.bids:
        state.apply_unchecked(BID_BASE + bid)
    for t in view.tricks:
        for c in t.cards:
            state.apply_unchecked(c)
    for c in view.trick:
        state.apply_unchecked(c)
    return state


def _suits_mask(voids: int) -> int:
    m = 0
    for s in range(4):
        if voids >> s & 1:
            m |= SUIT_MASK[s]
    return m


def sample_hidden(
    unseen: int, need: Sequence[int], forbidden: Sequence[int], rng: random.Random
) -> list[int]:
    """Give seat ``t`` ``need[t]`` cards from ``unseen``, none in ``forbidden[t]``."""
    n = len(need)
    pool = cards_of(unseen)
    seats = [t for t in range(n) if need[t]]
    if sum(need) > len(pool):
        raise PitchError("more hidden cards are needed than there are unseen cards")
    for _ in range(_REJECTION_TRIES):
        rng.shuffle(pool)
        out = [0] * n
        i = 0
        for t in seats:
            m = 0
            for c in pool[i : i + need[t]]:
                m |= BIT[c]
            if m & forbidden[t]:
                break
            out[t] = m
            i += need[t]
        else:
            return out
    order = sorted(seats, key=lambda t: (unseen & ~forbidden[t]).bit_count())
    for _ in range(_GREEDY_TRIES):
        rng.shuffle(pool)
        out = [0] * n
        taken = 0
        for t in order:
            k = need[t]
            m = 0
            bad = forbidden[t] | taken
            for c in pool:
                b = BIT[c]
                if not b & bad:
                    m |= b
                    k -= 1
                    if not k:
                        break
            if k:
                break
            out[t] = m
            taken |= m
        else:
            return out
    raise PitchError("no deal of the unseen cards is consistent with the shown voids")
