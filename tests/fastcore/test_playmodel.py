"""The learned card policy (``learned`` rollouts): exact with the heuristic's model,
blind to the other hands, the top card under its weights, and a checked model file."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from pitch.engine import GameState, Rules
from pitch.engine.cards import mask_of, parse_card
from pitch.engine.errors import PitchError
from pitch.engine.state import PLAY
from pitch.fastcore import layout as L
from pitch.fastcore import pack, playmodel, policy_mask, simulate_hands
from pitch.fastcore._jit import constant_floats, new_array, new_floats
from pitch.fastcore.modelfile import TABLES, model_index
from pitch.fastcore.packing import position_list
from pitch.fastcore.playmodel import FEATURES, NF
from pitch.fastcore.policy import card_rows, heuristic_card, learned_action
from tests.fastcore.policycheck import JUNK, reshuffle_others, states


def _weights(rows: list[list[float]]) -> object:
    return constant_floats(tuple(x for row in rows for x in row))


def _one(feature: str, weight: float = 1.0) -> object:
    row = [0.0] * NF
    row[FEATURES.index(feature)] = weight
    return _weights([row] * len(TABLES))


def _card_states(seed: int, count: int) -> list[GameState]:
    """Positions in the play once trump is set, with a choice of cards."""
    return [
        s
        for s in states(seed, count)
        if s.phase == PLAY and s.trump >= 0 and s.legal_mask().bit_count() > 1
    ]


def test_the_heuristic_model_plays_the_heuristic_card() -> None:
    heuristic = _weights(playmodel.heuristic_weights())
    found = _card_states(11, 2500)
    assert len(found) > 300
    for s in found:
        w = pack(s)
        legal = s.legal_mask()
        assert learned_action(w, legal, heuristic) == heuristic_card(w, legal)


def test_the_policy_mask_names_learned_and_untrained_tables_play_the_heuristic() -> None:
    assert policy_mask("learned") == L.LEARNED
    assert policy_mask(["random", "learned"]) == 2 | 2 << L.LEARNED_SHIFT
    assert playmodel.trained(tuple(x for r in playmodel.heuristic_weights() for x in r)) == (
        (0.0,) * len(TABLES)
    )
    for players, partnerships in TABLES:
        rules = Rules(players=players, partnerships=partnerships)
        a = simulate_hands(rules, 200, 5, "heuristic", detail=True)
        b = simulate_hands(rules, 200, 5, "learned", detail=True)
        untrained = playmodel.TRAINED[model_index(players, partnerships)] == 0.0
        # A trained table plays its own cards; any other the heuristic's (its fast path).
        assert ([list(r) for r in a] == [list(r) for r in b]) == untrained, rules


def test_the_learned_card_does_not_look_at_other_hands() -> None:
    rng = random.Random(12)
    weights = _weights([[rng.uniform(-2, 2) for _ in range(NF)] for _ in TABLES])
    for s in _card_states(13, 1500):
        w = position_list(s) + [JUNK] * (L.SIZE - L.POSITION_SIZE)
        legal = s.legal_mask()
        want = learned_action(new_array(w), legal, weights)
        rows = new_floats(legal.bit_count() * NF)
        card_rows(new_array(w), legal, rows)
        for _ in range(2):
            other = new_array(reshuffle_others(w, rng))
            assert learned_action(other, legal, weights) == want
            again = new_floats(legal.bit_count() * NF)
            card_rows(other, legal, again)
            assert list(again) == list(rows)


def test_the_top_card_by_rank_and_the_lowest_card_on_ties() -> None:
    highest, lowest, flat = _one("rank"), _one("rank", -1.0), _one("rank", 0.0)
    seen = 0
    for s in _card_states(14, 1500):
        w = pack(s)
        legal = s.legal_mask()
        cards = [c for c in range(52) if legal >> c & 1]
        top = max(cards, key=lambda c: (c % 13, -c))
        bottom = min(cards, key=lambda c: (c % 13, c))
        assert learned_action(w, legal, highest) == top
        assert learned_action(w, legal, lowest) == bottom
        assert learned_action(w, legal, flat) == cards[0]
        seen += 1
    assert seen > 300


def _position(deal: list[str], actions: list[str]) -> GameState:
    """A partnership hand dealt ``deal`` (six cards a seat, from seat 0) by seat 3,
    with ``actions`` played (bids as ``bid2``/``pass``, cards by name)."""
    s = GameState(Rules(partnerships=True), dealer=3)
    s.deal([mask_of(parse_card(c) for c in deal[6 * p : 6 * p + 6]) for p in range(4)])
    for a in actions:
        if a == "pass":
            s.apply(52)
        elif a.startswith("bid"):
            s.apply(52 + int(a[3:]))
        else:
            s.apply(parse_card(a))
    return s


def _features(s: GameState) -> dict[int, dict[str, float]]:
    legal = s.legal_mask()
    cards = [c for c in range(52) if legal >> c & 1]
    out = new_floats(len(cards) * NF)
    card_rows(pack(s), legal, out)
    return {
        c: dict(zip(FEATURES, [float(x) for x in out[i * NF : (i + 1) * NF]], strict=True))
        for i, c in enumerate(cards)
    }


def test_features_of_a_known_trick() -> None:
    # Seat 0 pitches spades with the ace and leads it; seat 1 (the other side) follows
    # with the 2; seat 2 (the pitcher's partner) may feed its partner's sure trick.
    hands = ("As Kh 4d 5c 6c 7c", "2s 3h 4h 8c 9c 3d", "Js Th 8d 2c 3c 4c", "Qs 5h 6h 7h 8h 9h")
    deal = [c for h in hands for c in h.split()]  # seats 0, 1, 2, 3
    s = _position(deal, ["bid2", "pass", "pass", "pass", "As", "2s"])
    assert s.current_player() == 2
    f = _features(s)
    jack = f[parse_card("Js")]
    assert jack["heuristic"] == 1.0  # the heuristic feeds its partner the Jack
    assert jack["trump"] == 1.0 and jack["jack"] == 1.0 and jack["follow"] == 1.0
    assert jack["wins"] == 0.0 and jack["ruff"] == 0.0
    assert jack["feed"] == jack["value"] and jack["value"] > 1.0  # the Jack's point
    assert jack["trump_on_partner"] == 1.0 and jack["pitcher_trump"] == 1.0
    assert [k for k in f] == [parse_card("Js")]  # the only spade: must follow (R4.2)
    # Seat 3 after the Jack: may not follow, ruffs nothing (spades are trump, led).
    s2 = _position(deal, ["bid2", "pass", "pass", "pass", "As", "2s", "Js"])
    f2 = _features(s2)
    queen = f2[parse_card("Qs")]
    assert queen["follow"] == 1.0 and queen["wins"] == 0.0 and queen["last_wins"] == 0.0
    assert queen["pitcher_trump"] == 0.0 and queen["feed"] == 0.0
    assert math.isclose(queen["rank"], 10 / 12) and queen["ten"] == 0.0
    assert math.isclose(queen["suit_cards"], 1 / 6) and queen["lowest_of_suit"] == 1.0
    assert queen["singleton"] == 0.0  # a lone trump leaves no void worth having
    # Seat 0 leads the second trick (it won the first): its lone king of hearts.
    s3 = _position(deal, ["bid2", "pass", "pass", "pass", "As", "2s", "Js", "Qs"])
    f3 = _features(s3)
    king, five = f3[parse_card("Kh")], f3[parse_card("5c")]
    assert king["singleton"] == 1.0 and king["lead_master"] == 0.0  # the ace is out
    assert math.isclose(king["lead_game"], 0.3) and king["lead_trump"] == 0.0
    assert math.isclose(five["suit_cards"], 3 / 6) and five["lowest_of_suit"] == 1.0
    assert f3[parse_card("7c")]["lowest_of_suit"] == 0.0


def test_the_shipped_model_is_read_and_bad_files_refused(tmp_path: Path) -> None:
    data = json.loads(playmodel.MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(x for r in data["weights"] for x in r) == playmodel.WEIGHTS
    assert data["tables"] == [list(t) for t in TABLES]
    good = {"format": 1, "kind": "play-model", "weights": playmodel.heuristic_weights()}
    assert playmodel.weights_of(good, "x") == tuple(
        x for r in playmodel.heuristic_weights() for x in r
    )
    bad_rows = [[0.0] * (NF - 1)] * len(TABLES)
    nan_rows = [[math.nan] * NF] * len(TABLES)
    for bad, why in (
        ({**good, "kind": "bid-value"}, "not a play-model model"),
        ({**good, "format": 2}, "not a play-model model"),
        ({**good, "weights": good["weights"][:3]}, "weights for 7 tables"),
        ({**good, "weights": bad_rows}, f"each table has {NF} weights"),
        ({**good, "weights": nan_rows}, "finite"),
        ({**good, "weights": [["1"] * NF] * len(TABLES)}, "numbers"),
    ):
        with pytest.raises(PitchError, match=why):
            playmodel.weights_of(bad, "x")
    path = tmp_path / "m.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(PitchError, match="cannot read the play-model model"):
        playmodel.read(path)
