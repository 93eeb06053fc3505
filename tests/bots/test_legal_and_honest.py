"""Every bot plays only legal actions at every table, and sees only its own seat."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pitch.bots import Bot, make_bot, play_game
from pitch.engine import GameState, PlayerView, Rules, resample
from tests.conftest import ALL_TABLES

# Small budgets: legality does not depend on how long a bot thinks.
SPECS = [
    "random",
    "heuristic",
    "pimc:samples=2,time=0.02,tries=2",
    "ismcts:iterations=6,time=0.02,tries=2",
    "ismcts:iterations=6,time=0.02,tries=2,rollout=random",
]


class Spy(Bot):
    """Wraps a bot; checks every view it is handed against the true state."""

    def __init__(self, inner: Bot, state_ref: list[GameState]) -> None:
        super().__init__(rng=inner.rng)
        self.inner = inner
        self.state_ref = state_ref
        self.views = 0

    def act(self, view: PlayerView) -> int:
        assert type(view) is PlayerView
        state = self.state_ref[0]
        # The view holds this seat's cards and public facts only: any deal of the
        # hidden cards consistent with it yields the very same view.
        other = resample(view, random.Random(self.views))
        # (resample rebuilds this hand only; finished hands are public anyway)
        assert replace(other.view(view.seat), history=view.history) == view
        assert view.hand == state.hands[view.seat]
        self.views += 1
        action = self.inner.act(view)
        assert view.legal >> action & 1, f"{self.inner.name} chose an illegal action"
        return action


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(
    "rules", ALL_TABLES, ids=lambda r: f"{r.players}p{'-pairs' if r.partnerships else ''}"
)
def test_bots_play_legal_actions_everywhere(spec: str, rules: Rules) -> None:
    rng = random.Random(hash((spec, rules.players)) & 0xFFFF)
    games = 3 if spec in ("random", "heuristic") else 1
    for g in range(games):
        bots = [make_bot(spec, rng=random.Random(g * 10 + s)) for s in range(rules.players)]
        # play_game applies with the checked API: an illegal action raises.
        out = play_game(rules, bots, rng, max_hands=2 if games == 1 else 40)
        assert sum(out.decisions) > 0


@pytest.mark.parametrize("spec", ["heuristic", "pimc:samples=2,time=0.05", "ismcts:iterations=8"])
def test_bots_see_only_their_own_seat(spec: str) -> None:
    rules = Rules(partnerships=True)
    rng = random.Random(3)
    state = GameState.new_game(rules, rng)
    ref = [state]
    spies = [Spy(make_bot(spec, rng=random.Random(s)), ref) for s in range(4)]
    hands = 0
    while not state.is_terminal() and hands < 3:
        if state.is_chance_node():
            state.deal_random(rng)
            hands += 1
            continue
        seat = state.current_player()
        state.apply(spies[seat].act(state.view(seat)))
    assert all(s.views > 0 for s in spies)


def test_bot_decision_depends_only_on_the_view() -> None:
    # Two states that differ only in cards seat 0 cannot see give seat 0 the same
    # view, and a seeded search bot the same decision.
    rules = Rules(players=4)
    st = GameState(rules, dealer=3)
    st.deal_random(random.Random(8))
    v = st.view(0)
    twin = resample(v, random.Random(99))
    assert twin.hands[1:] != st.hands[1:]
    assert replace(twin.view(0), history=v.history) == v
    a = make_bot("pimc:samples=3,time=1", rng=random.Random(1)).act(v)
    b = make_bot("pimc:samples=3,time=1", rng=random.Random(1)).act(twin.view(0))
    assert a == b


def test_game_over_is_called_for_every_seat() -> None:
    seen: list[int] = []

    class Recorder(Bot):
        def act(self, view: PlayerView) -> int:
            return make_bot("heuristic").act(view)

        def game_over(self, view: PlayerView) -> None:
            seen.append(view.seat)

    play_game(Rules(players=3), [Recorder() for _ in range(3)], random.Random(1))
    assert sorted(seen) == [0, 1, 2]
