"""The events a host derives from a seat's views rebuild exactly that seat's views."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from pitch.bots.protocol import GameEvents, ProtocolError, ViewTracker
from pitch.engine import PASS, GameState, Rules
from tests.conftest import ALL_TABLES

Policy = Callable[[GameState, random.Random], int]


def _random(state: GameState, rng: random.Random) -> int:
    return rng.choice(list(state.legal_actions()))


def _timid(state: GameState, rng: random.Random) -> int:
    """Mostly passes, so that with all_pass='redeal' some hands are thrown in."""
    legal = list(state.legal_actions())
    return PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal)


def _follow_game(
    rules: Rules, seed: int, choose: Policy = _random, max_hands: int = 12
) -> tuple[int, GameState]:
    """Play a random game; every seat's tracker, fed the new events (through JSON, as
    on the wire) at every decision and at the end, must give ``state.view(seat)``."""
    rng = random.Random(seed)
    state = GameState.new_game(rules, rng)
    n = rules.players
    events = [GameEvents(state.view(s)) for s in range(n)]
    trackers: list[ViewTracker | None] = [None] * n
    sent = [0] * n
    checks = 0

    def sync(seat: int) -> None:
        nonlocal checks
        view = state.view(seat)
        new = events[seat].update(view)[sent[seat] :]
        sent[seat] += len(new)
        for msg in new:
            msg = json.loads(json.dumps(msg))
            if msg["type"] == "game":
                trackers[seat] = ViewTracker.from_message(msg)
            else:
                t = trackers[seat]
                assert t is not None
                t.apply(msg)
        t = trackers[seat]
        assert t is not None
        legal = view.legal_actions().texts() if view.legal else None
        assert t.view(legal) == view
        checks += 1

    while not state.is_terminal():
        if state.is_chance_node():
            if len(state.history) >= max_hands:
                break
            state.deal_random(rng)
            continue
        for seat in range(n):
            sync(seat)
        state.apply(choose(state, rng))
    for seat in range(n):
        sync(seat)
    return checks, state


@pytest.mark.parametrize("rules", ALL_TABLES, ids=lambda r: f"{r.players}p")
def test_rebuilt_view_equals_engine_view(rules: Rules) -> None:
    for seed in range(2):
        checks, state = _follow_game(rules, seed)
        assert checks > 20 * len(state.history) > 0


def test_thrown_in_hands_are_followed() -> None:
    rules = Rules(players=4, all_pass="redeal")
    _, state = _follow_game(rules, 1, _timid)
    assert any(h.pitcher is None for h in state.history)  # the case did occur


def _tracker_after_deal() -> tuple[ViewTracker, GameState]:
    rules = Rules(players=4)
    state = GameState(rules, dealer=0)
    state.deal_random(random.Random(3))
    ev = GameEvents(state.view(1))
    msgs = ev.update(state.view(1))
    t = ViewTracker.from_message(msgs[0])
    for m in msgs[1:]:
        t.apply(m)
    return t, state


def test_contradictions_are_protocol_errors() -> None:
    t, _ = _tracker_after_deal()
    with pytest.raises(ProtocolError, match="seat 1 is to act"):
        t.apply({"type": "bid", "seat": 2, "bid": 0})
    with pytest.raises(ProtocolError, match="before any trick"):
        t.apply({"type": "trick", "winner": 0})
    with pytest.raises(ProtocolError, match="unknown message type"):
        t.apply({"type": "chat"})
    with pytest.raises(ProtocolError, match="'seat' must be an integer"):
        t.apply({"type": "bid", "seat": "one", "bid": 0})
    with pytest.raises(ProtocolError, match="expected pass, bid 1"):
        t.view(["pass"])
    t.apply({"type": "bid", "seat": 1, "bid": 2})
    with pytest.raises(ProtocolError, match=r"R3\.3"):
        t.apply({"type": "bid", "seat": 2, "bid": 1})
