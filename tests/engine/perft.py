"""Perft: counts of distinct legal action sequences from fixed positions.

Two counters that share nothing: :func:`engine_count` walks the engine with
``push``/``pop``; :func:`referee_count` enumerates with the independent referee's
rules (sets of ``(rank, suit)`` cards, no engine import). The stored counts in
``tests/data/perft.json`` are written by ``python -m tests.engine.regen`` from the
referee and checked against both.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tests.engine import referee


def engine_state(case: Mapping[str, Any]) -> Any:
    from pitch.engine import GameState, Rules, parse_action
    from tests.support.deals import cards

    s = GameState(Rules.from_dict(case["rules"]), dealer=case["dealer"])
    if "deal" in case:
        s.deal([cards(" ".join(h)) for h in case["deal"]])
    else:  # an auction: its count does not depend on the cards
        s.deal_random(random.Random(0))
    for a in (*case.get("auction", ()), *case.get("prefix", ())):
        s.apply(parse_action(a))
    return s


def engine_count(case: Mapping[str, Any]) -> int:
    """Leaves below the case's position: the end of the auction, or of the hand."""
    from pitch.engine import BID

    s = engine_state(case)
    hands = len(s.history)
    in_auction = s.phase == BID

    def walk() -> int:
        if (in_auction and s.phase != BID) or len(s.history) != hands:
            return 1
        total = 0
        m = s.legal_mask()
        while m:
            low = m & -m
            s.push(low.bit_length() - 1)
            total += walk()
            s.pop()
            m ^= low
        return total

    return walk()


def referee_count(case: Mapping[str, Any]) -> int:
    rules = {**referee.DEFAULTS, **case["rules"]}
    if case["kind"] == "auction":
        return _auctions(rules, case["dealer"])
    return _plays(rules, case)


def _auctions(rules: Mapping[str, Any], dealer: int) -> int:
    order = referee.auction_orders(rules, dealer)

    def walk(k: int, high: int) -> int:
        seat = order[k]
        total = 0
        for b in referee.legal_bids(rules, seat == dealer, high):
            if b == 4 or seat == dealer:
                total += 1  # R3.4 / R3.1: the auction is over
            else:
                total += walk(k + 1, max(high, b))
        return total

    return walk(0, 0)


def _plays(rules: Mapping[str, Any], case: Mapping[str, Any]) -> int:
    n = rules["players"]
    hands = [{referee.parse(t) for t in h} for h in case["deal"]]
    # Who pitches: replay the auction by the referee's rules.
    high, pitcher = 0, -1
    for k, text in enumerate(case["auction"]):
        seat = referee.auction_orders(rules, case["dealer"])[k]
        b = 0 if text == "pass" else int(text.split()[1])
        assert b in referee.legal_bids(rules, seat == case["dealer"], high)
        if b and (b > high or seat == case["dealer"]):
            high, pitcher = b, seat
    leader, trick, trump = pitcher, [], None
    tricks_done = 0
    for text in case["prefix"]:
        c = referee.parse(text)
        seat = (leader + len(trick)) % n
        assert c in referee.legal_plays(hands[seat], trick, trump)
        hands[seat].discard(c)
        trump = c[1] if trump is None else trump
        trick.append(c)
        if len(trick) == n:
            leader = (leader + referee.trick_winner_index(trick, trump)) % n
            trick, tricks_done = [], tricks_done + 1

    def walk(leader: int, trick: list[Any], trump: int | None, done: int) -> int:
        if done == 6:
            return 1
        seat = (leader + len(trick)) % n
        total = 0
        for c in referee.legal_plays(hands[seat], trick, trump):
            hands[seat].discard(c)
            t = c[1] if trump is None else trump
            nt = [*trick, c]
            if len(nt) == n:
                w = (leader + referee.trick_winner_index(nt, t)) % n
                total += walk(w, [], t, done + 1)
            else:
                total += walk(leader, nt, t, done)
            hands[seat].add(c)
        return total

    return walk(leader, trick, trump, tricks_done)
