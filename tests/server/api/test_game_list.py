"""A game list's ``won``: whether the listed seat's side won (R6.2), by the table's rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pitch.engine import Rules
from pitch.server.api.records import _items
from pitch.store import GameSummary

NOW = datetime(2026, 12, 5, tzinfo=UTC)


def _won(rules: Rules, seat: int, winner: int | None, status: str = "over") -> bool | None:
    names = tuple(f"p{i}" for i in range(rules.players))
    row = GameSummary("t", seat, status, winner, NOW, NOW, names, rules.to_dict())
    return _items([row])[0].won


@pytest.mark.parametrize(
    ("seat", "winner", "won"),
    [(0, 0, True), (2, 0, True), (1, 0, False), (3, 1, True), (2, 1, False)],
)
def test_partners_share_a_win(seat: int, winner: int, won: bool) -> None:
    assert _won(Rules(players=4, partnerships=True), seat, winner) is won


def test_each_solo_seat_is_its_own_side() -> None:
    rules = Rules(players=5)
    assert [_won(rules, seat, 3) for seat in range(5)] == [False, False, False, True, False]


def test_no_result_before_the_end_or_without_a_winner() -> None:
    assert _won(Rules(), 0, None, status="playing") is None
    assert _won(Rules(), 0, None) is None  # stopped at the server's hand limit
