"""The two playout policies: uniformly random, and the project's rule-based heuristic.

The heuristic (per seat, chosen by a bit of the policy mask) is the one
implementation of the ``heuristic`` bot's rules (:mod:`pitch.bots.heuristic` says
what they do), used by that bot, the search rollouts and the hints. Its readable
Python statement lives on as a test oracle (``tests/support/policy_oracle.py``):
``tests/fastcore/test_policy.py`` checks that the kernel makes exactly its
decisions on many positions. The two keep the same structure, function for function.

How the kernel stays exact:

* It reads what the Python policy reads and nothing else: the acting seat's hand,
  the cards played this hand (``DEALT & ~HANDS`` over the seats), the current trick
  (each seat's card in it is ``TRICK_MASK & DEALT[seat]``, in order from the
  leader), the bids, the scores and the table options. It never looks at another
  seat's cards (a rollout policy must not peek).
* Floating-point sums are done in the same order as the Python. Powers come from
  tables computed by Python's own ``**`` at import (numba's power of a float by an
  integer multiplies, which can differ from ``pow`` in the last bit).
* Tie-breaks follow Python's ``max(key=(value, -card))`` and ``min(key=(value,
  card))``: cards are visited from the lowest and only a strictly better value
  replaces the choice.
"""

from __future__ import annotations

from typing import Final

from pitch.fastcore import playmodel
from pitch.fastcore._jit import below, constant_floats, entry, highest, lowest, njit, popcount
from pitch.fastcore.bidmodel import FEATURES, PARTNERSHIP, W_COUNT, W_DENSE, W_HIGH, W_LOW, WEIGHTS
from pitch.fastcore.layout import (
    BEST_CARD,
    BEST_SEAT,
    DEALT,
    HANDS,
    HIGH_BIDDER,
    LEADER,
    LEARNED_SHIFT,
    MUST_MAKE,
    PARTNERS,
    PITCHER,
    SCORES,
    SIDES,
    TARGET,
    TO_ACT,
    TRICK_LEN,
    TRICK_MASK,
    TRUMP,
    N,
)
from pitch.fastcore.rules import RANK_MASK, SUIT_MASK, Arr, game_points, mix, side_of, step

FULL_DECK: Final = (1 << 52) - 1
JACK: Final = 9
TENS: Final = RANK_MASK[8]
ACES: Final = RANK_MASK[12]
GAME_UNIT: Final = 0.04
"""Points one game-count unit is worth (as the oracle's ``GAME_UNIT``)."""
GAME_VALUE: Final = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
"""R5.4 game points by rank (as ``pitch.engine.cards.GAME_VALUE``)."""


def _p_elsewhere(players: int) -> float:
    # The same expression as the oracle's p_elsewhere (R2.3).
    return 6 * (players - 1) / 46


P_ELSEWHERE: Final = tuple(_p_elsewhere(n) for n in range(8))
"""Chance that a card I cannot see was dealt to another seat, by player count."""
Q_POW: Final = tuple((1.0 - _p_elsewhere(n)) ** e for n in range(8) for e in range(13))
"""``Q_POW[13 * players + e]``: the chance that ``e`` given cards all stayed undealt."""
POW55: Final = tuple(0.55**k for k in range(14))
"""``POW55[k] = 0.55 ** k``: a trump stays Low with ``k`` lower ones unseen."""
BID_WEIGHTS: Final = constant_floats(WEIGHTS)
"""The shipped bid model (:mod:`pitch.fastcore.bidmodel`), a constant of the kernels."""
PLAY_WEIGHTS: Final = constant_floats(playmodel.WEIGHTS)
"""The shipped card model (:mod:`pitch.fastcore.playmodel`), a constant of the kernels."""
PLAY_NF: Final = playmodel.NF
PLAY_TRAINED: Final = constant_floats(playmodel.TRAINED)
"""The tables the shipped card model was trained for (elsewhere it is the heuristic)."""


@entry
def pick_random(mask: int, s: int) -> tuple[int, int]:
    """A uniformly random set bit of ``mask``: ``(action, new PRNG state)``."""
    s = step(s)
    k = below(mix(s), popcount(mask))
    # Drop the k lowest set bits. A loop of k steps mispredicts its exit about every
    # other action; six selects cover every legal mask (6 cards, or pass + 4 bids)
    # without a branch, and the loop after them never runs in this game.
    for i in range(6):
        fewer = mask & (mask - 1)
        mask = fewer if i < k else mask
    for _ in range(k - 6):
        mask &= mask - 1
    return lowest(mask), s


# ------------------------------------------------------------------ bidding


@njit
def suit_estimate(
    hand: int, suit: int, players: int, partnerships: bool, tens_game: float, face_game: float
) -> float:
    """My side's expected points pitching ``suit``
    (``tens_game``, ``face_game``: the hand's terms of Game, the same for every suit)."""
    trumps = hand & SUIT_MASK[suit]
    k = popcount(trumps)
    if k == 0:
        return 0.0
    p = P_ELSEWHERE[players]
    hi = highest(trumps) - 13 * suit
    lo = lowest(trumps) - 13 * suit
    high = Q_POW[13 * players + 12 - hi]
    if k == 1:
        low = Q_POW[13 * players + lo] * 0.95
    elif lo > 1:
        low = Q_POW[13 * players + lo] * 0.85
    else:
        low = Q_POW[13 * players + lo] * 0.9
    has_jack = (trumps >> (suit * 13 + JACK)) & 1
    if has_jack:
        jack = 0.92 if hi > JACK or k >= 3 else 0.7
    else:
        x = 0.1 * k + (0.2 if hi > JACK else 0.0)
        jack = p * (0.6 if x > 0.6 else x)
    game = 0.12 + 0.09 * k + tens_game + face_game
    if players > 2 and not partnerships:
        game -= 0.04 * (players - 2)
    if partnerships:
        game += 0.15
        if not has_jack:
            jack += (1 - jack) * 0.2
        low += (1 - low) * 0.15
    g = game if game < 0.9 else 0.9
    return high + low + jack + (g if g > 0.05 else 0.05)


@njit
def suit_features(
    hand: int, suit: int, players: int, partnerships: bool
) -> tuple[int, int, int, int, int, int, int, int, int, int, float]:
    """What the learned estimate reads of ``hand`` pitching ``suit`` (which it holds):
    the ranks of its top and bottom trumps and the number of trumps (one-hot in the
    model), then the numbers of :data:`pitch.fastcore.bidmodel.DENSE` in their order.
    The one statement of the features, for the estimate and for its training
    (:mod:`pitch.fastcore.bidsim`)."""
    trumps = hand & SUIT_MASK[suit]
    k = popcount(trumps)
    top = highest(trumps)
    hi = top - 13 * suit
    lo = lowest(trumps) - 13 * suit
    jack = (trumps >> (suit * 13 + JACK)) & 1
    tens = popcount(hand & TENS)
    face = game_points(hand) - 10 * tens
    aces = popcount(hand & ACES & ~SUIT_MASK[suit])
    rest = trumps & ~(1 << top)
    second = highest(rest) - 13 * suit if rest else -1
    # The same products as the oracle's 0.12 * tens and 0.015 * face.
    est = suit_estimate(hand, suit, players, partnerships, 0.12 * tens, 0.015 * face)
    under = jack if hi > JACK else 0
    return hi, lo, k, jack, jack * k, under, tens, face, aces, second, est


@njit
def learned_estimate(hand: int, suit: int, players: int, partnerships: bool) -> float:
    """The points my side is expected to take pitching ``suit`` (which the hand holds):
    the shipped model of the table (:mod:`pitch.fastcore.bidmodel`) on
    :func:`suit_features`, summed in a fixed order (the oracle's)."""
    hi, lo, k, j, jk, ju, tens, face, aces, second, est = suit_features(
        hand, suit, players, partnerships
    )
    o = FEATURES * (PARTNERSHIP if partnerships else players - 2)
    v: float = BID_WEIGHTS[o + W_HIGH + hi]
    v += BID_WEIGHTS[o + W_LOW + lo]
    v += BID_WEIGHTS[o + W_COUNT + k]
    d = o + W_DENSE
    v += BID_WEIGHTS[d] * j
    v += BID_WEIGHTS[d + 1] * jk
    v += BID_WEIGHTS[d + 2] * ju
    v += BID_WEIGHTS[d + 3] * tens
    v += BID_WEIGHTS[d + 4] * face
    v += BID_WEIGHTS[d + 5] * aces
    v += BID_WEIGHTS[d + 6] * second
    v += BID_WEIGHTS[d + 7] * est
    return v


@njit
def best_suit(hand: int, players: int, partnerships: bool) -> tuple[int, float]:
    """The suit to pitch and its learned estimate (the first best suit on ties)."""
    best = -1
    value = 0.0
    for s in range(4):
        if hand & SUIT_MASK[s]:
            v = learned_estimate(hand, s, players, partnerships)
            if best < 0 or v > value:
                best = s
                value = v
    return best, value


BID_MARGIN_TWO_SIDES: Final = -0.2
"""The heuristic's bid margin over its estimate, heads-up and partnership."""
BID_MARGIN_SOLO: Final = 0.1
"""The same with three or more sides (solo 3-7)."""


@entry
def heuristic_bid(w: Arr, legal: int) -> int:
    """The heuristic's bid, as an action id (the oracle's ``choose_bid``)."""
    seat = w[TO_ACT]
    partnerships = w[PARTNERS] != 0
    est = best_suit(w[HANDS + seat], w[N], partnerships)[1]
    me = side_of(w, seat)
    # The estimate is the points the pitcher's side takes; at a two-sided table
    # taking the auction is worth more than that (the lead, and the other side
    # kept from pitching), so it bids a little below the estimate (measured:
    # docs/results/bid-margin/).
    margin = BID_MARGIN_TWO_SIDES if w[SIDES] == 2 else BID_MARGIN_SOLO
    target = w[TARGET]
    near = target - 2
    opp_near = False
    for s in range(w[SIDES]):
        if s != me and w[SCORES + s] >= near:
            opp_near = True
    if opp_near:
        margin -= 0.35
    if w[SCORES + me] + est >= target and not w[MUST_MAKE]:
        margin -= 0.2
    hb = w[HIGH_BIDDER]
    if partnerships and hb >= 0 and side_of(w, hb) == me and not opp_near:
        margin += 0.5  # don't outbid a partner without a clearly better hand
    want = 0
    for b in range(1, 4):
        if est >= b + margin:
            want = b
    if est >= 4 + margin + 0.35:
        want = 4
    bids = legal >> 52
    for b in range(want, 0, -1):
        if bids >> b & 1:
            return 52 + b
    if bids & 1:
        return 52  # pass
    return 52 + lowest(bids)  # forced (R3.5)


# ------------------------------------------------------------------ card play


@njit
def card_value(card: int, trump: int, unseen: int, played: int) -> float:
    """A card's worth to its captor (trump >= 0)."""
    v = GAME_VALUE[card % 13] * GAME_UNIT
    if card // 13 == trump:
        if card % 13 == JACK:
            v += 1.0
        under = SUIT_MASK[trump] & ((1 << card) - 1)
        if under & played == 0:
            v += POW55[popcount(under & unseen)]
    return v


@njit
def keep_value(card: int, trump: int, unseen: int) -> float:
    """A card's worth in hand for later tricks."""
    if card // 13 == trump:
        if unseen & SUIT_MASK[trump] & ~((2 << card) - 1):
            return 0.25 + 0.02 * (card % 13)
        return 0.6
    return 0.01 * (card % 13)


@njit
def beats(card: int, best: int, trump: int) -> bool:
    s = card // 13
    if s == best // 13:
        return card > best
    return s == trump


@njit
def secure(card: int, trump: int, unseen: int, opp_after: bool, late: bool) -> bool:
    """No opponent still to play can beat ``card`` (``late``: the trick is nearly full)."""
    if not opp_after:
        return True
    unseen_trump = unseen & SUIT_MASK[trump]
    if card // 13 == trump:
        return unseen_trump >> (card + 1) == 0
    higher = unseen & SUIT_MASK[card // 13] & ~((2 << card) - 1)
    # An off-suit master can still be trumped; trust it only late.
    return higher == 0 and late and unseen_trump == 0


@njit
def lead(w: Arr, hand: int, legal: int, seat: int, unseen: int, played: int) -> int:
    """The card to lead (the oracle's ``_lead``)."""
    trump = w[TRUMP]
    if trump < 0:
        suit = best_suit(hand, w[N], w[PARTNERS] != 0)[0]
        return highest(hand & SUIT_MASK[suit])  # R4.1: this sets trump
    tmask = SUIT_MASK[trump]
    mine = hand & tmask
    unseen_trump = unseen & tmask
    if mine and unseen_trump:
        top = highest(mine)
        if top > highest(unseen_trump):
            return top  # a master trump draws the rest
    offs = legal & ~tmask
    if offs:
        if side_of(w, seat) == side_of(w, w[PITCHER]):
            aces = 0
            m = offs
            while m:
                c = lowest(m)
                m &= m - 1
                rest = unseen & SUIT_MASK[c // 13]
                if rest and rest & ~((2 << c) - 1) == 0:
                    aces |= 1 << c
            if aces:
                return highest(aces)  # a master of its suit collects its counters
        choice = -1
        cost = 0
        m = offs
        while m:
            c = lowest(m)
            m &= m - 1
            g = GAME_VALUE[c % 13]
            if choice < 0 or g < cost:
                choice = c
                cost = g
        return choice
    choice = -1
    value = 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        v = card_value(c, trump, unseen, played)
        if choice < 0 or v < value:
            choice = c
            value = v
    return choice


@njit
def played_cards(w: Arr) -> int:
    """The cards played so far this hand, by every seat."""
    played = 0
    for p in range(w[N]):
        played |= w[DEALT + p] & ~w[HANDS + p]
    return played


@njit
def seat_cards(w: Arr) -> tuple[int, int, int, int, int, int]:
    """What every card choice starts from: the seat to act, the players, its hand, the
    cards played, the cards it has not seen, and the trick's length."""
    seat = w[TO_ACT]
    hand = w[HANDS + seat]
    played = played_cards(w)
    return seat, w[N], hand, played, FULL_DECK & ~hand & ~played, w[TRICK_LEN]


@njit
def opponent_after(w: Arr, seat: int, me: int) -> bool:
    """A seat of another side is still to play to the current trick after ``seat``."""
    n = w[N]
    s = seat
    for _ in range(n - 1 - w[TRICK_LEN]):
        s = s + 1 if s + 1 < n else 0
        if side_of(w, s) != me:
            return True
    return False


@njit
def trick_worth(w: Arr, trump: int, unseen: int, played: int) -> float:
    """The worth of the cards in the current trick, summed in playing order as the
    Python does."""
    n = w[N]
    v = 0.0
    s = w[LEADER]
    tm = w[TRICK_MASK]
    for _ in range(w[TRICK_LEN]):
        v += card_value(lowest(tm & w[DEALT + s]), trump, unseen, played)
        s = s + 1 if s + 1 < n else 0
    return v


@entry
def heuristic_card(w: Arr, legal: int) -> int:
    """The heuristic's card (the oracle's ``choose_card``)."""
    seat, n, hand, played, unseen, tl = seat_cards(w)
    if tl == 0:
        return lead(w, hand, legal, seat, unseen, played)
    trump = w[TRUMP]
    me = side_of(w, seat)
    best = w[BEST_CARD]
    best_seat = w[BEST_SEAT]
    opp_after = opponent_after(w, seat, me)
    late = tl + 1 >= n - 1
    trick_value = trick_worth(w, trump, unseen, played)
    partner_holds = side_of(w, best_seat) == me
    if partner_holds and (not opp_after or secure(best, trump, unseen, opp_after, late)):
        # Partner holds the trick: feed it points, keep trumps that win later.
        choice = -1
        value = 0.0
        m = legal
        while m:
            c = lowest(m)
            m &= m - 1
            v = card_value(c, trump, unseen, played) - keep_value(c, trump, unseen)
            if choice < 0 or v > value:
                choice = c
                value = v
        return choice
    winners = 0
    choice = -1
    gain = 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= 1 << c
            if secure(c, trump, unseen, opp_after, late):
                v = (
                    trick_value
                    + card_value(c, trump, unseen, played)
                    - 0.5 * keep_value(c, trump, unseen)
                )
                if choice < 0 or v > gain:
                    choice = c
                    gain = v
    if choice >= 0 and (gain > 0.05 or choice // 13 != trump):
        return choice
    if winners and opp_after and not partner_holds:
        # Not safe but worth a try with a master of the suit led (no trump spent).
        masters = 0
        m = winners & ~SUIT_MASK[trump]
        while m:
            c = lowest(m)
            m &= m - 1
            if unseen & SUIT_MASK[c // 13] & ~((2 << c) - 1) == 0:
                masters |= 1 << c
        if masters and trick_value > 0.1:
            return highest(masters)
    # Lose cheaply: give away the least, keep what wins later.
    choice = -1
    value = 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        v = card_value(c, trump, unseen, played) + keep_value(c, trump, unseen)
        if choice < 0 or v < value:
            choice = c
            value = v
    return choice


# ------------------------------------------------------------------ learned card play


Context = tuple[int, int, int, int, int, int, int, int, bool, bool, bool, float, bool, bool, bool]
"""What :func:`card_features` reads of the trick, the same for every card (:func:`card_context`)."""


@njit
def card_context(w: Arr, legal: int) -> Context:
    """The trick as the seat to act sees it: the heuristic's card, trump (-1 before the
    first card names it), the seat's hand, the cards unseen and played, the trick's
    length, best card and led card, whether an opponent plays after, the trick is nearly
    full or this is its last card, the trick's worth, whether a partner holds it
    (safely), and whether this seat's side pitched."""
    heur = heuristic_card(w, legal)
    trump = w[TRUMP]
    seat, n, hand, played, unseen, tl = seat_cards(w)
    me = side_of(w, seat)
    best = w[BEST_CARD]
    led = -1
    opp_after = False
    trick_value = 0.0
    partner_holds = False
    partner_safe = False
    late = tl + 1 >= n - 1
    if tl > 0 and trump >= 0:
        led = lowest(w[TRICK_MASK] & w[DEALT + w[LEADER]])
        opp_after = opponent_after(w, seat, me)
        trick_value = trick_worth(w, trump, unseen, played)
        partner_holds = side_of(w, w[BEST_SEAT]) == me
        partner_safe = partner_holds and secure(best, trump, unseen, opp_after, late)
    pitcher_side = w[PITCHER] >= 0 and side_of(w, w[PITCHER]) == me
    return (
        heur, trump, hand, unseen, played, tl, best, led, opp_after, late, tl == n - 1,
        trick_value, partner_holds, partner_safe, pitcher_side,
    )  # fmt: skip


@njit
def card_features(
    c: int, ctx: Context
) -> tuple[
    float, float, float, float, float, float, float, float, float, float,
    float, float, float, float, float, float, float, float, float, float,
    float, float, float,
]:  # fmt: skip
    """The features of playing card ``c`` in the trick ``ctx`` (:func:`card_context`,
    trump set), in the order of :data:`pitch.fastcore.playmodel.FEATURES`: the one
    statement of them, for the ``learned`` policy and for its training."""
    heur, trump, hand, unseen, played, tl, best, led, opp_after, late, last = ctx[:11]
    trick_value, partner_holds, partner_safe, pitcher_side = ctx[11:]
    rank = c % 13
    is_trump = c // 13 == trump
    t = 1.0 if is_trump else 0.0
    value = card_value(c, trump, unseen, played)
    keep = keep_value(c, trump, unseen)
    leading = tl == 0
    wins = 0.0
    secure_win = 0.0
    if not leading and beats(c, best, trump):
        wins = 1.0
        if secure(c, trump, unseen, opp_after, late):
            secure_win = 1.0
    master = 1.0 if unseen & SUIT_MASK[c // 13] & ~((2 << c) - 1) == 0 else 0.0
    lead_ = 1.0 if leading else 0.0
    follow = 1.0 if not leading and c // 13 == led // 13 else 0.0
    ruff = t if not leading and led // 13 != trump else 0.0
    suit = hand & SUIT_MASK[c // 13]
    count = popcount(suit)
    return (
        1.0 if c == heur else 0.0,
        value,
        keep,
        t,
        rank / 12.0,
        1.0 if rank == 8 else 0.0,
        1.0 if is_trump and rank == JACK else 0.0,
        wins,
        secure_win,
        wins * trick_value,
        secure_win * (trick_value + value),
        value if partner_safe else 0.0,
        t if partner_holds else 0.0,
        follow,
        ruff,
        wins if last else 0.0,
        lead_ * t,
        lead_ * master,
        lead_ * GAME_VALUE[rank] / 10.0,
        t if pitcher_side else 0.0,
        count / 6.0,
        1.0 if count == 1 and not is_trump else 0.0,
        1.0 if lowest(suit) == c else 0.0,
    )


@njit
def model_index_of(w: Arr) -> int:
    """Which model of :data:`pitch.fastcore.modelfile.TABLES` plays at ``w``'s table."""
    return PARTNERSHIP if w[PARTNERS] != 0 else w[N] - 2


@njit
def learned_card(w: Arr, legal: int, weights: Arr) -> int:
    """The ``learned`` policy's card: the legal card with the highest score under the
    model of the table in ``weights`` (:mod:`pitch.fastcore.playmodel`), the lowest
    card on ties. The first card of a hand (it names trump, R4.1) is the heuristic's."""
    ctx = card_context(w, legal)
    if ctx[1] < 0:
        return ctx[0]
    o = PLAY_NF * model_index_of(w)
    choice = -1
    score = 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        f = card_features(c, ctx)
        v = 0.0
        for i in range(PLAY_NF):
            v += weights[o + i] * f[i]
        if choice < 0 or v > score:
            choice = c
            score = v
    return choice


@entry
def card_rows(w: Arr, legal: int, out: Arr) -> bool:
    """Each legal card's features (:func:`card_features`), in card order, into ``out``
    (``NF`` floats a card): what ``pitch train play-model`` fits the model to. False,
    and nothing written, before trump is named (that card is the heuristic's)."""
    ctx = card_context(w, legal)
    if ctx[1] < 0:
        return False
    row = 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        f = card_features(c, ctx)
        for i in range(PLAY_NF):
            out[row + i] = f[i]
        row += PLAY_NF
    return True


@entry
def learned_action(w: Arr, legal: int, weights: Arr) -> int:
    """:func:`learned_card` called from Python (a test's weights)."""
    return learned_card(w, legal, weights)


@njit
def choose(w: Arr, legal: int, policy: int, s: int) -> tuple[int, int]:
    """The action of the seat to act under ``policy``: ``(action, new PRNG state)``."""
    if (
        policy >> (LEARNED_SHIFT + w[TO_ACT]) & 1
        and not legal >> 52
        and PLAY_TRAINED[model_index_of(w)] > 0.0
    ):
        return learned_card(w, legal, PLAY_WEIGHTS), s
    if policy >> w[TO_ACT] & 1:
        if legal >> 52:
            return heuristic_bid(w, legal), s
        return heuristic_card(w, legal), s
    return pick_random(legal, s)


@entry
def heuristic_action(w: Arr, legal: int) -> int:
    """The heuristic's action for the seat to act in ``w``, whose legal actions are
    ``legal`` (one decision, called from Python; the loops inline :func:`choose`)."""
    if legal >> 52:
        return heuristic_bid(w, legal)
    return heuristic_card(w, legal)
