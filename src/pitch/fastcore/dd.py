"""Exact play of a hand with every card known ("double dummy"), by alpha-beta.

The rollout a PIMC search finishes a sampled deal with decides how good its
judgement of an action is. The heuristic plays the rest of the hand well but not
perfectly; :func:`solve` plays it exactly: the viewer's side maximises its payoff
(:func:`pitch.fastcore.pimc.hand_value`), every other seat minimises it. In the
partnership game that is the exact minimax value of the deal; in the solo game it
is the "paranoid" value (all opponents against the viewer), the usual choice for
search in games of more than two sides.

The search changes the position in place and undoes each card, so it needs no
copies; cards of no value for scoring that are next to each other in rank (no
live card between them) are interchangeable, and only one of each run is tried.
"""

from __future__ import annotations

from typing import Any, Final

from pitch.fastcore._jit import entry, highest, lowest, new_floats, njit, zeros
from pitch.fastcore.determinize import A_SEAT, determinize
from pitch.fastcore.layout import (
    BEST_CARD,
    BEST_SEAT,
    BID,
    CAPTURED,
    DEALT,
    DECK,
    HANDS,
    LEAD,
    LEADER,
    NPLAYED,
    PHASE,
    PLAY,
    SIDES,
    TO_ACT,
    TRICK_LEN,
    TRICK_MASK,
    TRICKS_DONE,
    TRUMP,
    N,
)
from pitch.fastcore.pimc import hand_value
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import SUIT_MASK, Arr, apply, legal_mask, play_card, score, side_of

ZERO_POINT: Final = sum(0xFF << (13 * s) for s in range(4))
"""Ranks 2-9 of every suit: cards that count nothing for Game (R5.4)."""

INF: Final = 1.0e9

M63: Final = (1 << 63) - 1
"""Hashes keep 63 bits: the same numbers as numba's wrapping int64 and as Python ints."""
HASH_MUL: Final = 0x5851F42D4C957F2D


@njit
def _mix(h: int, x: int) -> int:
    h = ((h ^ x) * HASH_MUL) & M63
    return h ^ (h >> 29)


def new_table(bits: int = 18) -> tuple[Any, Any]:
    """An empty transposition table for :func:`solve`: ``2**bits`` keys (and one slot
    for the generation count) and their bounds."""
    return zeros((1 << bits) + 1), new_floats(2 << bits)


@njit
def _key(w: Arr, gen: int) -> int:
    """The hash of a position between tricks: on one deal, the cards each side has
    taken and the leader fix everything still to come."""
    h = _mix(gen, w[LEADER] + 1)
    for side in range(w[SIDES]):
        h = _mix(h, w[CAPTURED + side])
    return h | 1  # never 0, the key of an empty slot


@njit
def _distinct(w: Arr, legal: int) -> int:
    """``legal`` less the cards that play exactly like a higher one in it: both worth
    nothing (ranks 2-9, and not the lowest trump in play, R5.2) and no card between
    them still in a hand or on the table. Keeps the highest of each run."""
    live = w[TRICK_MASK]
    dealt = 0
    for seat in range(w[N]):
        live |= w[HANDS + seat]
        dealt |= w[DEALT + seat]
    plain = legal & ZERO_POINT
    for suit in range(4):
        if w[TRUMP] < 0 or w[TRUMP] == suit:  # before the first lead, any suit may be trump
            cards = dealt & SUIT_MASK[suit]
            plain &= ~(cards & -cards)  # the lowest trump in play scores Low (R5.2)
    out = legal
    m = plain
    while m:
        c = highest(m)
        m ^= 1 << c
        # the next live card below c in its suit (if it is ours and plain, it goes)
        below = live & ((1 << c) - 1) & SUIT_MASK[c // 13]
        if below:
            d = highest(below)
            if plain >> d & 1:
                out &= ~(1 << d)
    return out


@entry
def solve(
    w: Arr,
    side: int,
    bonus: float,
    alpha: float,
    beta: float,
    res: Arr,
    keys: Arr,
    bounds: Arr,
) -> float:
    """The value for ``side`` of the hand in ``w`` (in play) under exact play from
    here; a fail-soft alpha-beta in the window ``(alpha, beta)``. ``w`` is restored
    before the return; ``res`` is scratch for scoring. ``keys`` and ``bounds`` are a
    transposition table (:func:`new_table`) of positions between tricks, valid for
    one deal, ``side`` and ``bonus``: the caller moves to a new one by adding one to
    the generation count ``keys[-1]``."""
    if w[PHASE] != PLAY:
        score(w, res, 0)
        return hand_value(w, res, side, bonus)
    trick_len = w[TRICK_LEN]
    tricks_done = w[TRICKS_DONE]
    slot = -1
    key = 0
    if trick_len == 0 and 0 < tricks_done < 5:
        size = len(keys) - 1
        key = _key(w, keys[size])
        slot = key & (size - 1)
        if keys[slot] == key:
            lo: float = bounds[2 * slot]
            hi: float = bounds[2 * slot + 1]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = lo if lo > alpha else alpha
            beta = hi if hi < beta else beta
    alpha0 = alpha
    beta0 = beta
    seat = w[TO_ACT]
    moves = _distinct(w, legal_mask(w))
    maxi = side_of(w, seat) == side
    # Everything play_card may change, to undo each card.
    trump = w[TRUMP]
    lead = w[LEAD]
    best_card = w[BEST_CARD]
    best_seat = w[BEST_SEAT]
    trick_mask = w[TRICK_MASK]
    leader = w[LEADER]
    nplayed = w[NPLAYED]
    # Order the cards so that the best is likely tried first (alpha-beta cuts more):
    # a leader tries high cards first; a follower whose side holds the trick its
    # cheapest cards; any other follower the cheapest cards that win the trick, then
    # its cheapest.
    up = trick_len > 0
    first = moves
    if up and side_of(w, best_seat) != side_of(w, seat):
        above = -(2 << best_card)
        if best_card // 13 == trump:
            beat = moves & SUIT_MASK[trump] & above
        else:
            beat = (moves & SUIT_MASK[best_card // 13] & above) | (moves & SUIT_MASK[trump])
        if beat:
            first = beat
    rest = moves & ~first
    m = first
    best = -INF if maxi else INF
    while True:
        if m == 0:
            if rest == 0:
                break
            m = rest
            rest = 0
        c = lowest(m) if up else highest(m)
        m ^= 1 << c
        captured_side = -1
        captured = 0
        play_card(w, c)
        if trick_len + 1 == w[N]:  # the trick completed: what its winner's side had
            captured_side = side_of(w, w[LEADER])
            captured = w[CAPTURED + captured_side] & ~trick_mask & ~(1 << c)
        v = solve(w, side, bonus, alpha, beta, res, keys, bounds)
        # undo
        w[HANDS + seat] |= 1 << c
        if captured_side >= 0:
            w[CAPTURED + captured_side] = captured
        w[TRUMP] = trump
        w[LEAD] = lead
        w[BEST_CARD] = best_card
        w[BEST_SEAT] = best_seat
        w[TRICK_MASK] = trick_mask
        w[TRICK_LEN] = trick_len
        w[TRICKS_DONE] = tricks_done
        w[LEADER] = leader
        w[TO_ACT] = seat
        w[NPLAYED] = nplayed
        w[PHASE] = PLAY
        if maxi:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
        elif v < best:
            best = v
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    if slot >= 0:
        lo = -INF
        hi = INF
        if best <= alpha0:
            hi = best  # failed low: an upper bound
        elif best >= beta0:
            lo = best  # failed high: a lower bound
        else:
            lo = best
            hi = best
        if keys[slot] == key:  # what an earlier search of this position proved
            lo = lo if lo > bounds[2 * slot] else bounds[2 * slot]
            hi = hi if hi < bounds[2 * slot + 1] else bounds[2 * slot + 1]
        keys[slot] = key
        bounds[2 * slot] = lo
        bounds[2 * slot + 1] = hi
    return best


@entry
def dd_values(
    pos: Arr,
    aux: Arr,
    actions: Arr,
    samples: int,
    policy: int,
    bonus: float,
    s: int,
    values: Arr,
    w0: Arr,
    w: Arr,
    sc: Arr,
    res: Arr,
    keys: Arr,
    bounds: Arr,
) -> int:
    """:func:`pitch.fastcore.pimc.pimc_values` with exact play: on each determinization,
    each action is applied and the rest of the hand valued by :func:`solve` (the rest
    of an auction is bid under ``policy`` first), with the transposition table
    ``keys``/``bounds`` (:func:`new_table`). Returns the PRNG state."""
    side = side_of(pos, aux[A_SEAT])
    na = len(actions)
    for k in range(samples):
        s = determinize(pos, aux, w0, sc, s)
        keys[len(keys) - 1] += 1  # a new deal: what the table holds is void
        for i in range(na):
            if pos[PHASE] == BID:  # each bid may end in another contract
                keys[len(keys) - 1] += 1
            for j in range(DECK):
                w[j] = w0[j]
            apply(w, actions[i])
            while w[PHASE] == BID:
                a, s = choose(w, legal_mask(w), policy, s)
                apply(w, a)
            values[k * na + i] = solve(w, side, bonus, -INF, INF, res, keys, bounds)
    return s
