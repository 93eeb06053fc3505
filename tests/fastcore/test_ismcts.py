"""The ISMCTS kernel: a well-formed tree, the payoff of pimc, the same search in Python."""

from __future__ import annotations

import random
from typing import Any

from pitch.bots.ismcts import REWARD_SCALE
from pitch.bots.pimc import WIN_BONUS
from pitch.engine import BID, PlayerView, Rules, resample
from pitch.fastcore import COMPILED, pack
from pitch.fastcore import layout as L
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.ismcts import (
    ACTION,
    AVAIL,
    FIRST,
    NEXT,
    NODE_INTS,
    VISITS,
    Tree,
    hand_value,
    heuristic_action,
    search,
)
from pitch.fastcore.loops import finish
from pitch.fastcore.search import pack_view
from tests.fastcore.diffcheck import in_pure_python
from tests.fastcore.test_api import positions
from tests.support.search_oracle import hand_value as py_hand_value

TABLES = (Rules(), Rules(players=4, partnerships=True), Rules(players=3), Rules(players=6))


def _views(rules: Rules, seed: int, count: int) -> list[PlayerView]:
    """Views of the seat to act, with a choice to make, at random moments."""
    rng = random.Random(seed)
    out = []
    for s in positions(rules, rng, count * 3):
        if s.legal_mask().bit_count() > 1:
            out.append(s.view(s.current_player()))
    return out[:count]


def _check(tree: Tree, view: PlayerView) -> None:
    """Invariants of an SO-ISMCTS tree after ``tree.iterations`` iterations."""
    node, total = tree.node, tree.total

    def kids(i: int) -> list[int]:
        out = []
        ch = int(node[i * NODE_INTS + FIRST])
        while ch >= 0:
            out.append(ch)
            ch = int(node[ch * NODE_INTS + NEXT])
        return out

    # Each iteration visits exactly one child of the root, legal for this seat.
    assert sum(ch.visits for ch in tree.children) == tree.iterations
    assert all(view.legal >> ch.action & 1 for ch in tree.children)
    assert view.legal >> tree.best() & 1
    ranked = sorted(tree.children, key=lambda ch: (-ch.visits, -ch.total, ch.action))
    assert tree.best() == ranked[0].action
    # Every node was made by an iteration that ended at it, and each later visit
    # went on to one child (or the hand was over there); a node is available in
    # every iteration that chose it; a parent's children have distinct actions.
    bound = (13 + 2 * WIN_BONUS) / REWARD_SCALE
    for i in range(1, tree.nodes):
        b = i * NODE_INTS
        visits = int(node[b + VISITS])
        below = kids(i)
        assert visits >= 1 and int(node[b + AVAIL]) >= visits
        if below:
            assert visits == 1 + sum(int(node[c * NODE_INTS + VISITS]) for c in below)
        acts = [int(node[c * NODE_INTS + ACTION]) for c in below]
        assert len(set(acts)) == len(acts) and all(0 <= a < 57 for a in acts)
        assert abs(float(total[i])) <= visits * bound
    assert tree.nodes <= tree.iterations + 1


def trees_all() -> list[Any]:
    """Searches on views of several tables, checked, as plain data (runs compiled, or
    as Python in a subprocess)."""
    out = []
    for rules in TABLES:
        for i, view in enumerate(_views(rules, rules.players * 5 + 3, 4)):
            tree = search(view, random.Random(i), iterations=60, tries=1 + 5 * (i % 2))
            _check(tree, view)
            out.append(
                [
                    tree.iterations,
                    tree.nodes,
                    [[c.action, c.visits, c.total, c.avail] for c in tree.children],
                    [int(x) for x in tree.node[: tree.nodes * NODE_INTS]],
                    [float(x) for x in tree.total[: tree.nodes]],
                ]
            )
    return out


def test_the_kernel_search_is_the_same_compiled_and_in_python() -> None:
    here = trees_all()
    if not COMPILED:
        return
    python = in_pure_python("tests.fastcore.test_ismcts", "trees_all")
    assert python == here, "the Python source searches another tree"


def test_a_full_tree_grows_without_changing_the_search() -> None:
    view = _views(Rules(players=4, partnerships=True), 9, 1)[0]
    small = search(view, random.Random(3), iterations=150, capacity=2)
    big = search(view, random.Random(3), iterations=150, capacity=1000)
    _check(small, view)
    assert small.children == big.children and small.nodes == big.nodes


def test_the_search_reads_only_the_view() -> None:
    # Another deal with the same view (the hidden hands resampled) searches the
    # same tree: nothing hidden reaches the kernel.
    rng = random.Random(5)
    for view in _views(Rules(players=3), 17, 5):
        other = resample(view, rng).view(view.seat)
        assert other == view
        a = search(view, random.Random(1), iterations=40)
        b = search(other, random.Random(1), iterations=40)
        assert a.children == b.children


def test_the_first_expansion_is_the_heuristic_bid() -> None:
    # In the auction the heuristic bids from its own hand, which the view holds, so
    # the first iteration expands the heuristic's bid at the root.
    for rules in TABLES:
        for view in _views(rules, 31, 12):
            if view.phase != BID:
                continue
            tree = search(view, random.Random(2), iterations=1, tries=1)
            pos, _ = pack_view(view, random.Random(0))
            want, _ = heuristic_action(pos, view.legal, seed64(0))
            assert [c.action for c in tree.children] == [int(want)]
            assert tree.children[0].visits == 1 == tree.children[0].avail


def test_hand_value_is_pimc_hand_value() -> None:
    # Finished hands from random positions, with scores near the target so that
    # the going-out bonus (R6.2) and must-make-bid-to-win are exercised.
    checked = 0
    for rules in (*TABLES, Rules(players=4, partnerships=True, must_make_bid_to_win=False)):
        rng = random.Random(rules.players)
        for s in positions(rules, rng, 30):
            w = pack(s)
            scores = [rng.randrange(rules.target - 5, rules.target + 1) for _ in range(7)]
            for i in range(s.num_sides):
                w[L.SCORES + i] = scores[i]
            res = new_array([0] * L.R_SIZE)
            finish(w, L.HEURISTIC, seed64(1), res, 0, new_array([]))
            delta = tuple(int(x) for x in res[: s.num_sides])
            pitcher = int(w[L.PITCHER])
            for side in range(s.num_sides):
                want = py_hand_value(rules, scores[: s.num_sides], delta, pitcher, side)
                assert hand_value(w, res, side, WIN_BONUS) == want
                checked += 1
    assert checked > 500


def test_search_counts_iterations_and_respects_the_deadline() -> None:
    view = _views(Rules(), 4, 1)[0]
    tree = search(view, random.Random(0), iterations=10)
    assert tree.iterations == 10
    # A deadline already passed stops after the first chunk.
    tree = search(view, random.Random(0), iterations=10**6, deadline=0.0)
    assert 1 <= tree.iterations <= 64
