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
