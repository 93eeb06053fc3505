"""The kernel heuristic against the oracle's ``state_action``, decision for decision.

Plain functions (no pytest) so that the same checks run in a subprocess with the
compiler off (``test_policy.py``).
"""

from __future__ import annotations

import random
from typing import Any

from pitch.engine import BID, PLAY, GameState, Rules
from pitch.fastcore import layout as L
from pitch.fastcore._jit import new_array
from pitch.fastcore.packing import position_list
from pitch.fastcore.policy import heuristic_action
from pitch.fastcore.search import heuristic_rollout as kernel_rollout
from tests.support.policy_oracle import heuristic_rollout as python_rollout
from tests.support.policy_oracle import state_action

JUNK = -(1 << 40)
"""Fills the logs and the deck: the policy must read only the position (as a rollout's
work array, whose logs are scratch)."""


def random_rules(rng: random.Random) -> Rules:
    """Any table: 2-7 players, partnerships, every house rule, small and large targets."""
    players = rng.randint(2, 7)
    return Rules(
        players=players,
        partnerships=players == 4 and rng.random() < 0.5,
        target=rng.choice((1, 2, 3, 5, 7, 7, 11, 11, 15, 21, rng.randint(1, 30))),
        low_to=rng.choice(("captor", "holder")),
        dealer_may_steal=rng.random() < 0.7,
        all_pass=rng.choice(("dealer_bids", "redeal")),
        min_bid=rng.choice((1, 1, 2)),
        must_make_bid_to_win=rng.random() < 0.4,
    )


def random_scores(rules: Rules, rng: random.Random) -> list[int]:
    """Scores near the target (where the bidding margin moves), far below it, set back
    below zero, or past it (R6.2: only the pitcher goes out, so others may pass it)."""
    t = rules.target
    out = []
    for _ in range(rules.num_sides):
        kind = rng.random()
        if kind < 0.4:
            out.append(rng.randint(t - 4, t - 1))
        elif kind < 0.9:
            out.append(rng.randint(-8, t - 1))
        else:
            out.append(rng.randint(t, t + 3))
    return out


def kernel_action(state: GameState) -> int:
    """The kernel heuristic's action, from the position a rollout packs."""
    w = new_array(position_list(state) + [JUNK] * (L.SIZE - L.POSITION_SIZE))
    return int(heuristic_action(w, state.legal_mask()))


def states(seed: int, count: int) -> list[GameState]:
    """``count`` states in the auction or the play, from random tables and scores,
    reached by a mix of heuristic and random actions (so that tricks look like the
    ones the heuristic meets in rollouts, and like odd ones too)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        rules = random_rules(rng)
        s = GameState(rules, dealer=rng.randrange(rules.players))
        s.scores = random_scores(rules, rng)
        s.deal_random(rng)
        greedy = rng.random()
        while s.phase in (BID, PLAY) and len(out) < count:
            out.append(s.copy())
            if rng.random() < greedy:
                s.apply(state_action(s))
            else:
                s.apply(rng.choice(list(s.legal_actions())))
    return out


def compare_actions(seed: int, count: int) -> int:
    """Compare the kernel's choice with ``state_action`` on ``count`` states; returns
    the number compared (raises on the first mismatch)."""
    for s in states(seed, count):
        want = state_action(s)
        got = kernel_action(s)
        assert got == want, (got, want, s.rules, s.scores, repr(s), s.hands, s.to_act)
    return count


def compare_rollouts(seed: int, count: int) -> int:
    """The kernel's heuristic rollout against the Python one on ``count`` states."""
    rng = random.Random(seed)
    for s in states(seed, count):
        want = python_rollout(s, rng)
        got = kernel_rollout(s, rng)
        assert got == want, (got, want, s.rules, s.scores, repr(s))
    return count


def reshuffle_others(w: Any, rng: random.Random) -> list[int]:
    """``w`` with the cards of the seats not to act dealt among them anew (same
    counts, the cards they played kept): what the acting seat cannot tell apart."""
    v = [int(x) for x in w]
    n, me = v[L.N], v[L.TO_ACT]
    others = [p for p in range(n) if p != me]
    pool = []
    for p in others:
        h = v[L.HANDS + p]
        pool += [c for c in range(52) if h >> c & 1]
    rng.shuffle(pool)
    for p in others:
        h = v[L.HANDS + p]
        k = h.bit_count()
        new = sum(1 << c for c in pool[:k])
        pool = pool[k:]
        v[L.DEALT + p] = (v[L.DEALT + p] & ~h) | new
        v[L.HANDS + p] = new
    return v
