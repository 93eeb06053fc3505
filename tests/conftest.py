"""Shared test helpers."""

from __future__ import annotations

import random

import pytest

from pitch.engine import GameState, Rules


def play_random_game(
    rules: Rules, rng: random.Random, max_hands: int = 200, check_views: bool = False
) -> GameState:
    """A whole game of uniformly random legal actions through the checked API."""
    state = GameState.new_game(rules, rng)
    while not state.is_terminal():
        if state.is_chance_node():
            if len(state.history) >= max_hands:
                break
            state.deal_random(rng)
            continue
        actions = list(state.legal_actions())
        state.apply(rng.choice(actions))
    return state


ALL_TABLES = [Rules(players=n) for n in range(2, 8)] + [
    Rules(partnerships=True),
    Rules(players=5, low_to="holder", all_pass="redeal", min_bid=2),
    Rules(players=3, dealer_may_steal=False, must_make_bid_to_win=True, target=11),
]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run after the others, and tests marked ``slow`` (long randomized
    runs) are skipped unless --run-slow is given.

    Playwright's sync API (the session's ``browser``) keeps an event loop running in
    the worker's thread from the first browser test on, so ``asyncio.run`` fails in
    any test that comes after one on the same worker. Every worker collects the same
    order and xdist hands out tests in it, so putting them last keeps that so."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)
