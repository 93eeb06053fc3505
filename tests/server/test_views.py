"""The state texts sent to each seat agree with the engine's views, field by field."""

from __future__ import annotations

import json
import random

from pitch.engine import CHANCE, GameState, Rules
from pitch.server.view_json import StateTexts, view_json


def test_state_texts_match_the_engine_views() -> None:
    rng = random.Random(7)
    checked = 0
    for rules in (Rules(), Rules(players=3), Rules(partnerships=True), Rules(players=6)):
        st = GameState(rules)
        for _ in range(400):
            if st.is_terminal():
                break
            if st.current_player() == CHANCE:
                st.deal_random(rng)
                continue
            texts = StateTexts({"type": "state", "seq": 1}, st)
            for seat in range(rules.players):
                msg = json.loads(texts.text(seat))
                assert msg["seat"] == seat
                assert msg["game"] == view_json(st.view(seat), private=True)
            public = json.loads(texts.text(None))
            assert public["game"] == view_json(st.view(0), private=False)
            assert public["game"]["hand"] is None and public["game"]["legal"] == []
            checked += 1
            st.apply(rng.choice(list(st.legal_actions())))
    assert checked > 500
    assert json.loads(StateTexts({"type": "state"}, None).text(2)) == {
        "type": "state",
        "seat": 2,
        "game": None,
    }


def _finished_game(rules: Rules, seed: int) -> GameState:
    rng = random.Random(seed)
    s = GameState.new_game(rules, rng)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.deal_random(rng)
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    return s


def test_the_hand_that_ends_the_game_says_why() -> None:
    from pitch.engine import game_record
    from pitch.engine.rules import END_TEXTS
    from pitch.server.records_check import checked_record
    from pitch.server.view_json import game_end_json, public_json

    s = _finished_game(Rules(players=3), 4)
    assert s.end_reason == "target"
    last = public_json(s.view(0))["last_hand"]
    assert last["end"] == {"reason": "target", "text": END_TEXTS["target"]}
    rec = checked_record(game_record(s))
    assert rec["end"] == last["end"]
    # Hands that did not end the game, and a game still going on, say nothing.
    assert len(s.history) > 1 and game_end_json(s.rules, s.history[0]) is None
    going = GameState.new_game(Rules(players=3), random.Random(4))
    assert going.end_reason is None and "end" not in checked_record(game_record(going))
