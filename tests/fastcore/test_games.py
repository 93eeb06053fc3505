"""Whole self-play games in the kernel: what they count is what was played."""

from __future__ import annotations

import pytest

from pitch.engine import Rules
from pitch.fastcore import layout
from pitch.fastcore._jit import new_array, seed64, zeros
from pitch.fastcore.games import ROW, STATS, play_games
from pitch.fastcore.packing import table
from pitch.fastcore.value import CELLS, win_cell


def run(rules: Rules, games: int, seed: int, max_hands: int = 300) -> tuple[list[int], list[int]]:
    counts = zeros(2 * CELLS)
    stats = zeros(STATS)
    play_games(
        new_array(table(rules, 0)), games, layout.HEURISTIC, seed64(seed), max_hands,
        zeros(layout.R_SIZE), zeros(max_hands * ROW), counts, stats, new_array([]),
    )  # fmt: skip
    return [int(x) for x in counts], [int(x) for x in stats]


@pytest.mark.parametrize(
    "rules",
    [Rules(players=2), Rules(players=3), Rules(partnerships=True, target=11)],
    ids=["heads-up", "solo3", "partnership-11"],
)
def test_counts_add_up_to_the_hands_played(rules: Rules) -> None:
    counts, (finished, unfinished, hands) = run(rules, 60, 5)
    assert finished + unfinished == 60 and finished > 50
    visits = sum(counts[0::2])
    wins = sum(counts[1::2])
    # Every side is counted at every hand start of a finished game, and exactly one
    # side wins each game: wins are one per counted hand start.
    assert visits == rules.num_sides * wins
    assert wins <= hands
    assert all(w <= v for v, w in zip(counts[0::2], counts[1::2], strict=True))


def test_every_game_starts_at_zero_needing_the_target() -> None:
    rules = Rules(players=3, target=7)
    counts, (finished, _, _) = run(rules, 40, 9)
    start = sum(counts[2 * win_cell(3, deals, 7, 7)] for deals in (0, 1))
    assert start == 3 * finished  # each side once per game, at 0-0-0


def test_a_game_cut_short_is_left_out() -> None:
    counts, (finished, unfinished, hands) = run(Rules(players=4, target=21), 10, 3, max_hands=2)
    assert finished == 0 and unfinished == 10 and hands == 20
    assert sum(counts) == 0


def test_the_same_seed_plays_the_same_games() -> None:
    rules = Rules(players=4)
    assert run(rules, 30, 11) == run(rules, 30, 11)
    assert run(rules, 30, 11) != run(rules, 30, 12)
