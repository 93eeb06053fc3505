"""The state texts sent to each seat agree with the engine's views, field by field."""

from __future__ import annotations

import json
import random

from pitch.engine import BID, CHANCE, GameState, Refusal, Rules, card_str, parse_card
from pitch.engine.refusals import AUCTION_NOT_OVER, FOLLOW_SUIT, KEYS, NOT_IN_HAND
from pitch.server.tables.view_json import StateTexts, refusal_json, view_json


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


def test_refusals_and_last_trick_come_from_the_engine() -> None:
    """The seat to act gets each of its cards (and, in the auction, each bid) with the
    engine's refusal, null exactly for the legal ones; everyone gets the last finished
    trick with the engine's winner, also just after the hand it ended."""
    rng = random.Random(11)
    st = GameState(Rules(players=3))
    seen_keys: set[str] = set()
    carried_over = 0
    for _ in range(300):
        if st.is_terminal():
            break
        if st.current_player() == CHANCE:
            st.deal_random(rng)
            continue
        texts = StateTexts({"type": "state"}, st)
        for seat in range(3):
            game = json.loads(texts.text(seat))["game"]
            if seat != st.to_act:
                assert game["refusals"] is None
                continue
            why = game["refusals"]
            bids = ["pass", "bid 1", "bid 2", "bid 3", "bid 4"] if st.phase == BID else []
            assert sorted(why) == sorted(game["hand"] + bids)
            assert sorted(a for a, r in why.items() if r is None) == sorted(game["legal"])
            for r in why.values():
                if r is not None:
                    assert r["rule"].startswith("R") and r["key"] in KEYS
                    seen_keys.add(r["key"])
        public = json.loads(texts.text(None))["game"]
        assert public["refusals"] is None
        last = (
            st.tricks[-1]
            if st.tricks
            else next((h.tricks[-1] for h in reversed(st.history) if h.tricks), None)
        )
        if last is None:
            assert public["last_trick"] is None
        else:
            assert public["last_trick"]["winner"] == last.winner
            assert [c["card"] for c in public["last_trick"]["cards"]] == [
                card_str(c) for c in last.cards
            ]
            carried_over += not st.tricks
        st.apply(rng.choice(list(st.legal_actions())))
    assert carried_over > 0
    assert {AUCTION_NOT_OVER, FOLLOW_SUIT} <= seen_keys


def test_refusal_json_sends_suits_as_letters_and_cards_as_text() -> None:
    follow = Refusal("R4.3", FOLLOW_SUIT, {"suit": 0, "trump": 2})
    assert refusal_json(follow) == {
        "rule": "R4.3",
        "key": FOLLOW_SUIT,
        "args": {"suit": "c", "trump": "h"},
    }
    assert refusal_json(Refusal("R4.2", NOT_IN_HAND, {"card": parse_card("Td")})) == {
        "rule": "R4.2",
        "key": NOT_IN_HAND,
        "args": {"card": "Td"},
    }
    assert refusal_json(None) is None


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
    from pitch.server.records.check import checked_record
    from pitch.server.tables.view_json import game_end_json, public_json

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


def test_the_state_says_who_may_pitch_and_who_played_each_card() -> None:
    """Issue 45: the client infers nothing. ``pitch`` is the bid that pitches (R3.4)
    exactly where the engine lets the seat to act make it, for that seat only; the
    sides and each trick card's seat are the engine's (``Rules.sides``,
    ``Rules.play_order``)."""
    rng = random.Random(5)
    offered = 0
    for rules in (Rules(), Rules(players=3, min_bid=2), Rules(partnerships=True), Rules(players=7)):
        st = GameState(rules)
        for _ in range(300):
            if st.is_terminal():
                break
            if st.current_player() == CHANCE:
                st.deal_random(rng)
                continue
            texts = StateTexts({"type": "state"}, st)
            for seat in [None, *range(rules.players)]:
                game = json.loads(texts.text(seat))["game"]
                may = seat == st.to_act and st.phase == BID and "bid 4" in game["legal"]
                assert game["pitch"] == ("bid 4" if may else None), (seat, game)
                offered += may
                assert game["sides"] == [list(s) for s in rules.sides]
                for trick in [game["trick"], *game["tricks"], game["last_trick"]]:
                    if trick is not None:
                        order = rules.play_order(trick["leader"])
                        assert [c["seat"] for c in trick["cards"]] == list(
                            order[: len(trick["cards"])]
                        )
            st.apply(rng.choice(list(st.legal_actions())))
    assert offered > 10
    assert Rules(partnerships=True).sides == ((0, 2), (1, 3))
    assert Rules(players=3).sides == ((0,), (1,), (2,))
    assert Rules(players=5).play_order(3) == (3, 4, 0, 1, 2)
