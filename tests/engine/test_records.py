"""Records: every single-field corruption is caught (by the verifier and the referee),
and the readers accept the documented shapes."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitch.engine import (
    RecordError,
    Rules,
    dumps,
    game_record,
    iter_records,
    read_records,
    replay_record,
    verify_record,
)
from pitch.engine.cards import SUITS, card_str, parse_card
from tests.engine import referee
from tests.engine.test_properties import random_game

Rec = dict[str, Any]
TABLES = [
    Rules(),
    Rules(players=3),
    Rules(players=7),
    Rules(players=2, target=3),
    Rules(partnerships=True),
    Rules(players=5, low_to="holder", all_pass="redeal", min_bid=2),
    Rules(players=3, dealer_may_steal=False, must_make_bid_to_win=True, target=11),
]


def records() -> list[Rec]:
    out = []
    for k, rules in enumerate(TABLES):
        rng = random.Random(100 + k)
        for _ in range(3):
            s = random_game(rules, rng.getrandbits(32), max_hands=6, checks=False)
            out.append(json.loads(dumps(game_record(s))))
    return out


RECORDS = records()


def played_hand(rec: Rec, rng: random.Random) -> int:
    """A random hand that was played (not thrown in)."""
    return rng.choice([i for i, h in enumerate(rec["hands"]) if h["pitcher"] is not None])


def other_seat(rec: Rec, v: Any) -> Any:
    return (v + 1) % rec["rules"]["players"] if isinstance(v, int) else 0


def other_side(rec: Rec, v: Any) -> Any:
    sides = 2 if rec["rules"]["partnerships"] else rec["rules"]["players"]
    return None if v == sides - 1 else (0 if v is None else v + 1)


def undealt_card(h: Rec) -> str:
    dealt = {parse_card(t) for cards in h["deal"] for t in cards}
    return card_str(next(c for c in range(52) if c not in dealt))


# A mutation changes one field of hand ``i`` (returned) and names the rules it may break.
Mutation = Callable[[Rec, random.Random], int | None]


def m_dealer(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    rec["hands"][i]["dealer"] = other_seat(rec, rec["hands"][i]["dealer"])
    return i


def m_deal_undealt(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    h = rec["hands"][i]
    seat = rng.randrange(len(h["deal"]))
    h["deal"][seat][rng.randrange(6)] = undealt_card(h)
    return i


def m_deal_twice(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    d = rec["hands"][i]["deal"]
    d[1][0] = d[0][0]
    return i


def m_deal_garbage(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    rec["hands"][i]["deal"][0][0] = "Zz"
    return i


def m_bid_seat(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    b = rng.choice(rec["hands"][i]["bids"])
    b[0] = other_seat(rec, b[0])
    return i


def m_winning_bid_value(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    h = rec["hands"][i]
    k = max(j for j, (s, _b) in enumerate(h["bids"]) if s == h["pitcher"])
    h["bids"][k][1] = rng.choice([v for v in range(5) if v != h["bids"][k][1]])
    return i


def m_pitcher(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    rec["hands"][i]["pitcher"] = other_seat(rec, rec["hands"][i]["pitcher"])
    return i


def m_bid(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    rec["hands"][i]["bid"] = rec["hands"][i]["bid"] % 4 + 1
    return i


def m_trump(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    h = rec["hands"][i]
    h["trump"] = rng.choice([s for s in SUITS if s != h["trump"]])
    return i


def _trick(rec: Rec, rng: random.Random) -> tuple[int, dict[str, Any]]:
    i = played_hand(rec, rng)
    return i, rng.choice(rec["hands"][i]["tricks"])


def m_leader(rec: Rec, rng: random.Random) -> int:
    i, t = _trick(rec, rng)
    t["leader"] = other_seat(rec, t["leader"])
    return i


def m_card(rec: Rec, rng: random.Random) -> int:
    i, t = _trick(rec, rng)
    t["cards"][rng.randrange(len(t["cards"]))] = undealt_card(rec["hands"][i])
    return i


def m_card_garbage(rec: Rec, rng: random.Random) -> int:
    i, t = _trick(rec, rng)
    t["cards"][0] = "11s"
    return i


def m_trick_winner(rec: Rec, rng: random.Random) -> int:
    i, t = _trick(rec, rng)
    t["winner"] = other_seat(rec, t["winner"])
    return i


def award(key: str) -> Mutation:
    def m(rec: Rec, rng: random.Random) -> int:
        i = played_hand(rec, rng)
        a = rec["hands"][i]["awards"]
        a[key] = other_side(rec, a[key])
        return i

    return m


def m_delta(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    rec["hands"][i]["delta"][rng.randrange(len(rec["hands"][i]["delta"]))] += 1
    return i


def m_scores(rec: Rec, rng: random.Random) -> int:
    i = rng.randrange(len(rec["hands"]))
    rec["hands"][i]["scores"][rng.randrange(len(rec["hands"][i]["scores"]))] -= 1
    return i


def m_game_points(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    rec["hands"][i]["game_points"][0] += 10
    return i


def m_made(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    rec["hands"][i]["made"] = not rec["hands"][i]["made"]
    return i


def m_award_cards(rec: Rec, rng: random.Random) -> int:
    i = played_hand(rec, rng)
    cards = rec["hands"][i]["award_cards"]
    cards["high"], cards["low"] = cards["low"], "2c" if cards["low"] != "2c" else "3c"
    return i


def m_winner(rec: Rec, rng: random.Random) -> None:
    rec["winner"] = other_side(rec, rec["winner"])


MUTATIONS: dict[str, tuple[Mutation, set[str]]] = {
    "dealer": (m_dealer, {"R2.4", "R3.1"}),
    "deal card (undealt)": (m_deal_undealt, {"R4.2", "R4.3"}),
    "deal card (dealt twice)": (m_deal_twice, {"R2.1"}),
    "deal card (not a card)": (m_deal_garbage, {"R2.1"}),
    "bid seat": (m_bid_seat, {"R3.1"}),
    "winning bid value": (
        m_winning_bid_value,
        {"R3.1", "R3.2", "R3.3", "R3.5", "R3.6", "R3.7"},
    ),
    "pitcher": (m_pitcher, {"R3.7"}),
    "bid": (m_bid, {"R3.7"}),
    "trump": (m_trump, {"R4.1"}),
    "trick leader": (m_leader, {"R4.1", "R4.6"}),
    "trick card": (m_card, {"R4.2"}),
    "trick card (not a card)": (m_card_garbage, {"R2.1"}),
    "trick winner": (m_trick_winner, {"R4.5"}),
    "award high": (award("high"), {"R5.1"}),
    "award low": (award("low"), {"R5.2"}),
    "award jack": (award("jack"), {"R5.3"}),
    "award game": (award("game"), {"R5.4"}),
    "delta": (m_delta, {"R5.6"}),
    "scores": (m_scores, {"R5.6"}),
    "game_points": (m_game_points, {"R5.4"}),
    "made": (m_made, {"R5.6"}),
    "award_cards": (m_award_cards, {"R5.1"}),
    "winner": (m_winner, {"R6.2"}),
}


@pytest.mark.parametrize("kind", list(MUTATIONS))
def test_any_single_corrupted_field_is_rejected(kind: str) -> None:
    mutate, rules = MUTATIONS[kind]
    rng = random.Random(kind)
    for k, good in enumerate(RECORDS):
        for _ in range(3):
            rec = copy.deepcopy(good)
            hand = mutate(rec, rng)
            problem = verify_record(rec)
            assert problem is not None, (kind, k)
            assert problem.rule in rules, (kind, k, str(problem))
            if hand is not None:
                assert problem.hand == hand, (kind, k, str(problem))
            assert referee.check(rec) != [], (kind, k)
            with pytest.raises(RecordError):
                replay_record(rec)


def test_any_bid_value_change_is_caught_or_still_legal() -> None:
    """Changing a losing bid can give another legal auction with the same outcome; then
    the verifier and the referee must both accept it, otherwise both reject it."""
    rng = random.Random(7)
    for good in RECORDS:
        for _ in range(5):
            rec = copy.deepcopy(good)
            h = rng.choice(rec["hands"])
            b = rng.choice(h["bids"])
            b[1] = rng.randrange(5)
            assert (verify_record(rec) is None) == (referee.check(rec) == [])


def test_thrown_in_hand_fields_are_checked() -> None:
    rules = Rules(all_pass="redeal")
    rec = None
    for seed in range(200):
        s = random_game(rules, seed, max_hands=6, checks=False)
        r = json.loads(dumps(game_record(s)))
        if any(h["pitcher"] is None for h in r["hands"]):
            rec = r
            break
    assert rec is not None
    assert verify_record(rec) is None
    i = next(i for i, h in enumerate(rec["hands"]) if h["pitcher"] is None)
    h = rec["hands"][i]
    assert h["bid"] is None and h["trump"] is None and h["tricks"] == []
    assert h["delta"] == [0] * 4 and "made" not in h and "game_points" not in h
    assert "award_cards" not in h
    for field, value in (("pitcher", 0), ("trump", "h"), ("delta", [1, 0, 0, 0])):
        bad = copy.deepcopy(rec)
        bad["hands"][i][field] = value
        p = verify_record(bad)
        assert p is not None and p.hand == i and p.rule in {"R3.5", "R5.6"}


def test_unknown_keys_are_ignored() -> None:
    rec = copy.deepcopy(RECORDS[0])
    rec["comment"] = "hello"
    rec["rules"]["future_option"] = True
    rec["hands"][0]["note"] = 1
    assert verify_record(rec) is None


@pytest.mark.parametrize(
    "bad",
    [[], "x", {"hands": []}, {"rules": 3, "hands": [], "winner": None}, {"rules": {}}],
)
def test_malformed_records_are_problems_not_crashes(bad: object) -> None:
    p = verify_record(bad)
    assert p is not None and p.rule in {"format", "rules"}


def test_iter_records_shapes(tmp_path: Path) -> None:
    a, b = RECORDS[0], RECORDS[1]
    jsonl = dumps(a) + "\n\n" + dumps(b) + "\n"
    assert [i.record for i in iter_records(jsonl)] == [a, b]
    assert [i.line for i in iter_records(jsonl)] == [1, 3]
    assert [i.record for i in iter_records(json.dumps([a, b]))] == [a, b]
    assert [i.record for i in iter_records(json.dumps(a, indent=2))] == [a]
    assert list(iter_records("  \n")) == []
    items = list(iter_records(dumps(a) + "\n{not json\n"))
    assert items[1].error is not None and items[1].index == 1 and items[1].line == 2
    p = tmp_path / "games.jsonl"
    p.write_text(jsonl, encoding="utf-8")
    assert read_records(p) == [a, b]
    p.write_text("{oops\n", encoding="utf-8")
    with pytest.raises(RecordError, match="line 1"):
        read_records(p)
    p.write_text("[1]", encoding="utf-8")
    with pytest.raises(RecordError, match="game 0"):
        read_records(p)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@settings(max_examples=int(os.environ.get("PITCH_FUZZ_EXAMPLES", "100")), deadline=None)
@given(st.integers(0, len(RECORDS) - 1), st.integers(0, 10**6), json_values)
def test_garbage_anywhere_is_a_problem_never_a_crash(k: int, where: int, value: Any) -> None:
    """Any node of a good record replaced by any JSON value: verify_record returns a
    Problem (or None when the value happens to be right), and never raises.
    ``PITCH_FUZZ_EXAMPLES=5000 pytest tests/engine/test_records.py -k garbage`` for a
    longer hunt."""
    rec = copy.deepcopy(RECORDS[k])
    paths = _paths(rec)[1:]
    path = paths[where % len(paths)]
    node = rec
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    problem = verify_record(rec)
    if problem is None:
        assert referee.check(rec) == []
    else:
        assert problem.rule and problem.message


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("hands", 0, "tricks", 0, "winner"), "bool"),
        (("hands", 0, "tricks", 0, "leader"), "float"),
        (("hands", 0, "pitcher"), "float"),
        (("hands", 0, "bid"), "float"),
        (("hands", 0, "game_points"), "floats"),
        (("hands", 0, "made"), "int"),
        (("winner",), "bool"),
    ],
)
def test_json_coercions_are_not_accepted(where: tuple[Any, ...], value: str) -> None:
    """``false`` is not seat 0 and ``1.0`` is not 1 (Python's ``==`` says they are)."""

    def get(rec: Rec) -> Any:
        node: Any = rec
        for key in where:
            node = node[key]
        return node

    def fits(rec: Rec) -> bool:
        if rec["hands"][0]["pitcher"] is None:
            return False
        return value != "bool" or get(rec) in (0, 1)

    two = random_game(Rules(players=2, target=1), 3, max_hands=50, checks=False)
    won = json.loads(dumps(game_record(two)))  # target 1: won by seat 0 or 1
    rec = copy.deepcopy(next(r for r in [*RECORDS, won] if fits(r)))
    parent = rec
    for key in where[:-1]:
        parent = parent[key]
    old = parent[where[-1]]
    parent[where[-1]] = {
        "bool": lambda: bool(old),
        "float": lambda: float(old),
        "floats": lambda: [float(x) for x in old],
        "int": lambda: int(old),
    }[value]()
    assert verify_record(rec) is not None


def test_a_refused_card_names_its_seat_and_reason_as_data() -> None:
    """A card the seat does not hold: the problem carries the seat (from 0) and the
    engine's refusal, for a front end to word (the replay viewer, issue 44)."""
    rec = copy.deepcopy(next(r for r in records() if r["hands"][0]["tricks"]))
    h = rec["hands"][0]
    leader = h["tricks"][0]["leader"]
    other = h["deal"][(leader + 1) % len(h["deal"])][0]
    h["tricks"][0]["cards"][0] = other
    problem = verify_record(rec)
    assert problem is not None and problem.seat == leader
    assert problem.refusal is not None and problem.refusal.rule == problem.rule == "R4.2"
    assert problem.refusal.key == "{card} is not in your hand"
    assert card_str(problem.refusal.args["card"]) == other
    # A format problem has neither.
    del rec["hands"][0]["dealer"]
    problem = verify_record(rec)
    assert problem is not None and problem.seat is None and problem.refusal is None
