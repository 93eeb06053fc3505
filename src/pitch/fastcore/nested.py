"""Nested PIMC in the kernel: the searching seat's own later card plays are searched too.

Plain PIMC (:mod:`pitch.fastcore.pimc`) values an action by finishing the hand with
the rollout policy for every seat, the searching seat included: it asks "what is
this card worth if I then play like the heuristic?". That is one step of policy
improvement over the heuristic. Here the searching seat's later card decisions
in each rollout are themselves made by a small PIMC search, so an action is
valued as "what is it worth if I then play like PIMC?": a second step.

The inner search must not see the rollout's deal, or the seat would play its
later cards knowing every hand (the double-dummy error that made
``pimc:solve=play`` lose, docs/bots.md). So at each inner decision the seat's
information set is rebuilt from the rollout position alone: its own cards, the
cards each seat has played, the voids shown so far (tracked as the rollout
plays, R4.3/R4.4) and the auction; the hidden cards are dealt again from it
(:func:`pitch.fastcore.determinize.determinize`) for each inner sample.

The other seats still follow the rollout policy (the model of how they play).
The cost is about ``inner`` x (own decisions left) x (cards in hand) rollouts per
outer rollout, which the compiled core can pay within a second and the Python
loop cannot: this is the search the speed buys.
"""

from __future__ import annotations

from pitch.fastcore._jit import entry, lowest, njit, popcount
from pitch.fastcore.determinize import (
    A_CARDS,
    A_FORBID,
    A_NEED,
    A_PLAYED_BY,
    A_SEAT,
    A_SLACK,
    A_TRIES,
    A_UNSEEN,
    AUX_SIZE,
    determinize,
)
from pitch.fastcore.layout import (
    BID,
    DEALT,
    DECK,
    HANDS,
    HEURISTIC,
    LEAD,
    PHASE,
    PLAY,
    POSITION_SIZE,
    TO_ACT,
    TRICK_LEN,
    TRUMP,
    N,
)
from pitch.fastcore.loops import play_out
from pitch.fastcore.pimc import hand_value
from pitch.fastcore.policy import choose
from pitch.fastcore.rules import SUIT_MASK, Arr, apply, legal_mask, score, side_of, suit_of

ALL_CARDS = (1 << 52) - 1
FLOAT_SCRATCH = 8
"""Slots of the inner search's value array (a hand holds at most six cards, R2.2)."""


@njit
def _track(w: Arr, card: int, forbid: Arr) -> None:
    """Before ``card`` is played in ``w``: a card neither of the suit led nor trump
    shows the player void in the suit led (R4.3, as the engine's views read it)."""
    if w[TRICK_LEN] > 0:
        led = w[LEAD]
        su = suit_of(card)
        if su != led and su != w[TRUMP]:
            forbid[w[TO_ACT]] |= SUIT_MASK[led]


@njit
def _view_aux(w: Arr, me: int, forbid: Arr, aux: Arr, base: Arr, tries: int) -> None:
    """``aux`` = seat ``me``'s information set in the position ``w`` (what
    :func:`pitch.fastcore.search.pack_view` would pack from its view), reading the
    auction with ``tries`` deals and the other settings of ``base``."""
    n = w[N]
    played = 0
    for t in range(n):
        played |= w[DEALT + t] & ~w[HANDS + t]
    for i in range(AUX_SIZE):
        aux[i] = 0
    aux[A_SEAT] = me
    aux[A_UNSEEN] = ALL_CARDS & ~w[HANDS + me] & ~played
    aux[A_TRIES] = tries
    aux[A_SLACK] = base[A_SLACK]
    aux[A_CARDS] = base[A_CARDS]
    for t in range(n):
        if t != me:
            aux[A_NEED + t] = popcount(w[HANDS + t])
        aux[A_FORBID + t] = forbid[t]
        aux[A_PLAYED_BY + t] = w[DEALT + t] & ~w[HANDS + t]


@njit
def inner_choice(
    w: Arr,
    legal: int,
    me: int,
    inner: int,
    tries: int,
    bonus: float,
    s: int,
    forbid: Arr,
    base: Arr,
    aux: Arr,
    v0: Arr,
    v: Arr,
    sc: Arr,
    res: Arr,
    vals: Arr,
    log: Arr,
) -> tuple[int, int]:
    """Seat ``me``'s card in ``w`` by a PIMC search of ``inner`` samples over its own
    information set (never ``w``'s hidden hands), each deal drawn with ``tries``
    tries to match the auction: ``(card, PRNG state)``. Ties go to
    the lowest card, as in :meth:`pitch.bots.pimc.PimcBot.act`."""
    _view_aux(w, me, forbid, aux, base, tries)
    side = side_of(w, me)
    na = popcount(legal)
    for i in range(na):
        vals[i] = 0.0
    for _ in range(inner):
        s = determinize(w, aux, v0, sc, s)
        m = legal
        for i in range(na):
            card = lowest(m)
            m &= m - 1
            for j in range(POSITION_SIZE):
                v[j] = v0[j]
            apply(v, card)
            s = play_out(v, HEURISTIC, s, res, 0, log)
            vals[i] += hand_value(v, res, side, bonus)
    best = -1
    best_v = 0.0
    m = legal
    for i in range(na):
        card = lowest(m)
        m &= m - 1
        if best < 0 or vals[i] > best_v:
            best = card
            best_v = vals[i]
    return best, s


@entry
def nested_values(
    pos: Arr,
    aux: Arr,
    actions: Arr,
    samples: int,
    policy: int,
    bonus: float,
    inner: int,
    inner_tries: int,
    inner_bonus: float,
    s: int,
    values: Arr,
    w0: Arr,
    w: Arr,
    sc: Arr,
    res: Arr,
    log: Arr,
    forbid: Arr,
    iaux: Arr,
    v0: Arr,
    v: Arr,
    isc: Arr,
    ires: Arr,
    ivals: Arr,
) -> int:
    """As :func:`pitch.fastcore.pimc.pimc_values`, but in each rollout the viewer's
    own card plays are chosen by :func:`inner_choice` (``inner`` samples of
    ``inner_tries`` tries each, valued with ``inner_bonus`` for going out); every
    other decision follows ``policy``. The arrays after ``log`` are scratch:
    ``forbid`` (7 ints), ``iaux`` (``AUX_SIZE``), ``v0`` and ``v`` (positions),
    ``isc`` (determinization scratch), ``ires`` (a result row) and ``ivals``
    (:data:`FLOAT_SCRATCH` floats). Returns the PRNG state."""
    me = aux[A_SEAT]
    side = side_of(pos, me)
    na = len(actions)
    n = pos[N]
    for k in range(samples):
        s = determinize(pos, aux, w0, sc, s)
        for i in range(na):
            for j in range(DECK):
                w[j] = w0[j]
            for t in range(n):
                forbid[t] = aux[A_FORBID + t]
            a = actions[i]
            while True:  # the root position is in the auction or the play
                if w[PHASE] == PLAY:
                    _track(w, a, forbid)
                apply(w, a)
                phase = w[PHASE]
                if phase != BID and phase != PLAY:
                    break
                legal = legal_mask(w)
                if phase == PLAY and w[TO_ACT] == me and legal & (legal - 1):
                    a, s = inner_choice(
                        w, legal, me, inner, inner_tries, inner_bonus, s, forbid, aux, iaux,
                        v0, v, isc, ires, ivals, log,
                    )  # fmt: skip
                else:
                    a, s = choose(w, legal, policy, s)
            score(w, res, 0)
            values[k * na + i] = hand_value(w, res, side, bonus)
    return s
