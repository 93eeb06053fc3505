"""A :class:`GameState` to a packed position (:mod:`pitch.fastcore.layout`) and back."""

from __future__ import annotations

from collections.abc import Sequence

from pitch.engine import OVER, GameState, PlayerView, Rules
from pitch.engine.cards import BIT, SUIT_OF
from pitch.engine.errors import PitchError
from pitch.engine.rules import OPTIONS
from pitch.fastcore.layout import (
    BEST_CARD,
    BEST_SEAT,
    BIDS,
    CAPTURED,
    CONTRACT,
    DEAL,
    DEALER,
    DEALT,
    DECK,
    HANDS,
    HIGH_BID,
    HIGH_BIDDER,
    LEAD,
    LEADER,
    NBIDS,
    NPLAYED,
    OPTION_SLOT,
    OPTIONS_END,
    PHASE,
    PITCHER,
    PLAYED,
    SCORES,
    SIDES,
    SIZE,
    TO_ACT,
    TRICK_LEN,
    TRICK_MASK,
    TRICKS_DONE,
    TRUMP,
)

_DECK = list(range(52))


_SLOTS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def _option_slots(rules: Rules) -> tuple[int, ...]:
    """Slots ``0 .. OPTIONS_END - 1`` of a packed position: every option of
    :data:`pitch.engine.rules.OPTIONS` as an int in its slot, and the number of sides.
    Kept by the identity of ``rules`` (hashing a Rules, field by field, would cost
    more than packing): search packs positions of one table over and over."""
    hit = _SLOTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    w = [0] * OPTIONS_END
    for opt in OPTIONS:
        w[OPTION_SLOT[opt.key]] = opt.to_int(getattr(rules, opt.key))
    w[SIDES] = rules.num_sides
    if len(_SLOTS) >= 256:
        _SLOTS.clear()
    _SLOTS[id(rules)] = (rules, tuple(w))  # the entry holds rules: its id is not reused
    return _SLOTS[id(rules)][1]


def table(rules: Rules, dealer: int = 0) -> list[int]:
    """A packed position for ``rules`` before the first deal (phase DEAL)."""
    w = [0] * SIZE
    w[:OPTIONS_END] = _option_slots(rules)
    w[DEALER] = dealer
    w[TO_ACT] = w[HIGH_BIDDER] = w[PITCHER] = w[TRUMP] = -1
    w[LEAD] = w[BEST_CARD] = w[BEST_SEAT] = w[LEADER] = -1
    w[DECK : DECK + 52] = _DECK
    return w


def pack_list(state: GameState) -> list[int]:
    """The packed position of ``state`` as a list of ints.

    Must be called before a hand is dealt or during its auction or play (not in
    the middle of a card-by-card deal, nor after the game is over).
    """
    phase = state.phase
    if phase == OVER:
        raise PitchError("R6.2: the game is over; there is no hand to pack")
    if phase == DEAL and state.ndealt:
        raise PitchError("R2.2: cannot pack a hand while it is being dealt card by card")
    w = table(state.rules, state.dealer)
    n = state.n
    w[PHASE] = phase
    w[SCORES : SCORES + len(state.scores)] = state.scores
    if phase == DEAL:
        return w
    w[TO_ACT] = state.to_act
    w[HIGH_BID] = state.high_bid
    w[HIGH_BIDDER] = state.high_bidder
    w[PITCHER] = state.pitcher
    w[CONTRACT] = state.contract
    w[TRUMP] = state.trump
    w[LEADER] = state.leader
    trick = state.trick
    if trick:
        w[LEAD] = state.lead_suit
        w[BEST_CARD] = state.best_card
        w[BEST_SEAT] = state.best_seat
        w[TRICK_MASK] = state.trick_mask
    w[TRICK_LEN] = len(trick)
    w[TRICKS_DONE] = len(state.tricks)
    w[HANDS : HANDS + n] = state.hands
    w[DEALT : DEALT + n] = state.dealt
    w[CAPTURED : CAPTURED + state.num_sides] = state.captured
    bids = [b for _seat, b in state.bids]
    w[NBIDS] = len(bids)
    w[BIDS : BIDS + len(bids)] = bids
    played = [c for t in state.tricks for c in t.cards]
    played += trick
    w[NPLAYED] = len(played)
    w[PLAYED : PLAYED + len(played)] = played
    return w


def position_list(state: GameState) -> list[int]:
    """The first :data:`POSITION_SIZE` ints of :func:`pack_list` (what a playout
    reads), built in one go: the fast path for search, for a state in the auction or
    the play. The logs of bids and cards are not included."""
    n = state.n
    trick = state.trick
    w = [
        *_option_slots(state.rules),
        state.phase,
        state.to_act,
        state.dealer,
        state.high_bid,
        state.high_bidder,
        state.pitcher,
        state.contract,
        state.trump,
        state.lead_suit if trick else -1,
        state.best_card if trick else -1,
        state.best_seat if trick else -1,
        state.trick_mask if trick else 0,
        len(trick),
        len(state.tricks),
        state.leader,
        len(state.bids),
        len(state.tricks) * n + len(trick),
    ]
    return _with_seats(
        w, n, state.num_sides, state.hands, state.dealt, state.captured, state.scores
    )


_PAD7 = [0] * 7


def _with_seats(
    w: list[int],
    n: int,
    sides: int,
    hands: Sequence[int],
    dealt: Sequence[int],
    captured: Sequence[int],
    scores: Sequence[int],
) -> list[int]:
    """``w`` followed by the per-seat and per-side slots, each padded to 7."""
    w += hands
    w += _PAD7[n:]
    w += dealt
    w += _PAD7[n:]
    w += captured
    w += _PAD7[sides:]
    w += scores
    w += _PAD7[sides:]
    return w


def view_position_list(view: PlayerView) -> list[int]:
    """:func:`position_list` of the moment ``view`` sees, for a view in the auction or
    the play, with every other seat's *unplayed* cards left out (its hand empty, its
    dealt cards those it played): the heuristic reads another seat's cards only as
    "dealt and no longer held", the cards it played, so this is all it needs."""
    r = view.rules
    n = r.players
    trick = view.trick
    seat = view.seat
    hands = [0] * n
    hands[seat] = view.hand
    dealt = list(view.played_by)
    dealt[seat] = view.dealt
    side_of = view.rules.side_of
    captured = [0] * r.num_sides
    mask = 0
    for t in view.tricks:
        for c in t.cards:
            mask |= BIT[c]
        captured[side_of(t.winner)] |= mask
        mask = 0
    trick_mask = 0
    for c in trick:
        trick_mask |= BIT[c]
    holder = view.holder
    w = [
        *_option_slots(r),
        view.phase,
        view.current_player,
        view.dealer,
        view.high_bid,
        view.high_bidder,
        view.pitcher,
        view.contract,
        view.trump,
        SUIT_OF[trick[0]] if trick else -1,
        trick[(holder - view.leader) % n] if trick else -1,
        holder if trick else -1,
        trick_mask,
        len(trick),
        len(view.tricks),
        view.leader,
        len(view.bids),
        len(view.tricks) * n + len(trick),
    ]
    return _with_seats(w, n, r.num_sides, hands, dealt, captured, view.scores)


def rules_of(w: Sequence[int]) -> Rules:
    """The table options stored in a packed position."""
    return Rules.from_dict({o.key: o.from_int(int(w[OPTION_SLOT[o.key]])) for o in OPTIONS})


def unpack(w: Sequence[int]) -> GameState:
    """The :class:`GameState` of a packed position, rebuilt by replaying this hand's
    deal, bids and cards through the checked engine (so a corrupt position raises).
    Earlier hands are not kept: the history starts at this hand; scores carry over.
    """
    rules = rules_of(w)
    state = GameState(rules, dealer=int(w[DEALER]))
    state.scores = [int(x) for x in w[SCORES : SCORES + rules.num_sides]]
    if w[PHASE] == DEAL:
        return state
    state.deal([int(x) for x in w[DEALT : DEALT + rules.players]])
    for i in range(int(w[NBIDS])):
        state.apply(52 + int(w[BIDS + i]))
    for i in range(int(w[NPLAYED])):
        state.apply(int(w[PLAYED + i]))
    return state
