"""An independent referee: RULES.md re-implemented the plain way, from the record alone.

It does not import the engine (no state machine, no scoring, no card ids, no bit masks):
cards are ``(rank, suit)`` pairs parsed from the record's text, hands are Python sets,
and every rule is written out as it reads in RULES.md. Given a record (the JSON object
``pitch simulate`` writes) it replays the decisions in it (the deal, the bid values, the
cards played) and recomputes every derived field (bid seats, pitcher, contract, trump,
trick leaders and winners, awards, game points, made, delta, scores, winner), returning
one line per field that disagrees. An empty list means the record is right.

The test suite runs it over thousands of simulated records on every table; two
implementations written separately agreeing field by field is the point.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RANKS = "23456789TJQKA"  # R2.1, low to high
SUITS = "cdhs"
GAME_VALUE = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}  # R5.4
DEFAULTS: dict[str, Any] = {
    "players": 4,
    "partnerships": False,
    "target": 7,
    "low_to": "captor",
    "dealer_may_steal": True,
    "all_pass": "dealer_bids",
    "min_bid": 1,
    "must_make_bid_to_win": False,
    "smudge": False,
}

Card = tuple[int, int]  # (rank index 0..12, suit index 0..3)


class Stop(Exception):
    """The record broke a rule; the replay cannot go on."""


def parse(text: object) -> Card:
    if not isinstance(text, str):
        raise Stop(f"not a card: {text!r}")
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        raise Stop(f"not a card: {text!r}")
    return RANKS.index(t[0].upper()), SUITS.index(t[1].lower())


def side(rules: Mapping[str, Any], seat: int) -> int:
    """R1.2/R1.4: partners sit opposite, so team = seat parity."""
    return seat % 2 if rules["partnerships"] else seat


def num_sides(rules: Mapping[str, Any]) -> int:
    return 2 if rules["partnerships"] else rules["players"]


def legal_bids(rules: Mapping[str, Any], is_dealer: bool, high: int) -> list[int]:
    """R3.2-R3.6 (and the house options): the bids (0 = pass) a seat may make."""
    lowest = rules["min_bid"]
    higher = [b for b in range(1, 5) if b > high and b >= lowest]
    if not is_dealer:
        return [0, *higher]  # R3.3
    if high == 0:
        if rules["all_pass"] == "dealer_bids":
            return [b for b in higher if b >= 2]  # R3.5: no pass, at least 2
        return [0, *higher]  # house rule: the dealer may pass and the hand is redealt
    steal = [high] if rules["dealer_may_steal"] else []  # R3.6
    return [0, *steal, *higher]


def legal_plays(hand: set[Card], trick: list[Card], trump: int | None) -> set[Card]:
    """R4.3/R4.4: follow suit or trump when able to follow; otherwise anything."""
    if not trick:
        return set(hand)
    led = trick[0][1]
    follow = {c for c in hand if c[1] == led}
    if not follow:
        return set(hand)  # R4.4
    return follow | {c for c in hand if c[1] == trump}  # R4.3 (trump led: trump only)


def trick_winner_index(trick: list[Card], trump: int) -> int:
    """R4.5: the highest trump, else the highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if c[1] == trump]
    pool = trumps if trumps else [i for i, c in enumerate(trick) if c[1] == trick[0][1]]
    return max(pool, key=lambda i: trick[i][0])


def auction_orders(rules: Mapping[str, Any], dealer: int) -> list[int]:
    n = rules["players"]
    return [(dealer + k) % n for k in range(1, n + 1)]  # R3.1


def check(record: object) -> list[str]:
    """Every disagreement between ``record`` and the rules (empty when it is right)."""
    out: list[str] = []
    try:
        _check(record, out)
    except Stop as e:
        out.append(f"stopped: {e}")
    return out


def _check(record: object, out: list[str]) -> None:
    if not isinstance(record, dict):
        raise Stop("a record is an object")
    rules = {**DEFAULTS, **{k: v for k, v in record.get("rules", {}).items() if k in DEFAULTS}}
    n = rules["players"]
    ns = num_sides(rules)
    scores = [0] * ns
    winner: int | None = None
    expected_dealer: int | None = None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise Stop("hands is a list")
    for hi, h in enumerate(hands):
        where = f"hand {hi}"

        def expect(field: str, got: object, want: object, where: str = where) -> None:
            if got != want or isinstance(got, bool) != isinstance(want, bool):
                out.append(f"{where}: {field} is {got!r}, expected {want!r}")

        if winner is not None:
            raise Stop(f"{where}: the game was already won")
        dealer = h["dealer"]
        if expected_dealer is not None:
            expect("dealer", dealer, expected_dealer)  # R2.4
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            raise Stop(f"{where}: bad dealer")
        expected_dealer = (dealer + 1) % n

        # R2: six distinct cards per seat.
        deal = [[parse(t) for t in cards] for cards in h["deal"]]
        if len(deal) != n or any(len(d) != 6 for d in deal):
            raise Stop(f"{where}: each of {n} seats is dealt 6 cards")
        all_cards = [c for d in deal for c in d]
        if len(set(all_cards)) != len(all_cards):
            raise Stop(f"{where}: a card is dealt twice")
        holder = {c: seat for seat, d in enumerate(deal) for c in d}
        hand_sets = [set(d) for d in deal]

        # R3: the auction.
        high, high_seat = 0, None
        bids = h["bids"]
        order = auction_orders(rules, dealer)
        for k, (seat, bid) in enumerate(bids):
            if k >= len(order) or (k > 0 and bids[k - 1][1] == 4):
                raise Stop(f"{where}: bid {k} after the auction ended")
            expect(f"bid {k} seat", seat, order[k])
            is_dealer = order[k] == dealer
            if bid not in legal_bids(rules, is_dealer, high):
                raise Stop(f"{where}: bid {k} ({bid}) is illegal")
            if bid and (bid > high or is_dealer):
                high, high_seat = bid, order[k]
        if not bids or not (bids[-1][1] == 4 or len(bids) == n):
            raise Stop(f"{where}: the auction is unfinished")
        if high_seat is None:
            # House rule: everyone passed; thrown in, nothing scored.
            for f in ("pitcher", "bid", "trump"):
                expect(f, h[f], None)
            expect("tricks", h["tricks"], [])
            expect("awards", h["awards"], {"high": None, "low": None, "jack": None, "game": None})
            expect("delta", h["delta"], [0] * ns)
            expect("scores", h["scores"], scores)
            continue
        pitcher = high_seat  # R3.7
        expect("pitcher", h["pitcher"], pitcher)
        expect("bid", h["bid"], high)

        # R4: the play.
        captured: list[list[Card]] = [[] for _ in range(ns)]
        captor_of: dict[Card, int] = {}
        leader = pitcher  # R4.1
        trump: int | None = None
        tricks = h["tricks"]
        if len(tricks) != 6:
            raise Stop(f"{where}: a hand is six tricks")
        for ti, t in enumerate(tricks):
            tw = f"{where} trick {ti}"
            expect("leader", t["leader"], leader, tw)
            if len(t["cards"]) != n:
                raise Stop(f"{tw}: one card per player")
            played: list[Card] = []
            for j, text in enumerate(t["cards"]):
                seat = (leader + j) % n  # R4.2
                c = parse(text)
                if c not in legal_plays(hand_sets[seat], played, trump):
                    raise Stop(f"{tw}: seat {seat} may not play {text}")
                if trump is None:
                    trump = c[1]  # R4.1
                hand_sets[seat].discard(c)
                played.append(c)
            assert trump is not None
            win_seat = (leader + trick_winner_index(played, trump)) % n
            expect("winner", t["winner"], win_seat, tw)
            captured[side(rules, win_seat)].extend(played)
            for c in played:
                captor_of[c] = side(rules, win_seat)
            leader = win_seat  # R4.6
        assert trump is not None
        expect("trump", h["trump"], SUITS[trump])

        # R5: scoring.
        won = [0] * ns
        awards: dict[str, int | None] = {"high": None, "low": None, "jack": None, "game": None}
        trumps_in_play = sorted(c for c in all_cards if c[1] == trump)
        if trumps_in_play:
            hi_c, lo_c = trumps_in_play[-1], trumps_in_play[0]
            awards["high"] = captor_of[hi_c]  # R5.1
            if rules["low_to"] == "holder":
                awards["low"] = side(rules, holder[lo_c])
            else:
                awards["low"] = captor_of[lo_c]  # R5.2
            jack = (RANKS.index("J"), trump)
            if jack in holder:
                awards["jack"] = captor_of[jack]  # R5.3
        counts = [sum(GAME_VALUE.get(RANKS[r], 0) for r, _s in cs) for cs in captured]
        best = max(counts)
        if counts.count(best) == 1:
            awards["game"] = counts.index(best)  # R5.4
        for s in awards.values():
            if s is not None:
                won[s] += 1  # R5.5: the same card can take High and Low (and Jack)
        pside = side(rules, pitcher)
        made = won[pside] >= high
        delta = list(won)
        if not made:
            delta[pside] = -high  # R5.6
        scores = [a + d for a, d in zip(scores, delta, strict=True)]
        for key in ("high", "low", "jack", "game"):
            expect(f"awards.{key}", h["awards"].get(key), awards[key])
        if "game_points" in h:
            expect("game_points", h["game_points"], counts)
        if "made" in h:
            expect("made", h["made"], made)
        if "award_cards" in h:  # the trumps that decided High, Low and Jack

            def text(c: tuple[int, int] | None) -> str | None:
                return None if c is None else RANKS[c[0]] + SUITS[c[1]]

            jack_c = (RANKS.index("J"), trump)
            decided = {
                "high": text(trumps_in_play[-1]),
                "low": text(trumps_in_play[0]),
                "jack": text(jack_c if jack_c in holder else None),
            }
            expect("award_cards", h["award_cards"], decided)
        expect("delta", h["delta"], delta)
        expect("scores", h["scores"], scores)
        # R6.2: only the pitcher's side goes out, at the end of a hand it pitched;
        # Smudge (house rule on R6): bid 4 and took all four points from a score >= 0.
        smudged = (
            rules["smudge"]
            and high == 4
            and all(awards[k] == pside for k in ("high", "low", "jack", "game"))
            and scores[pside] - delta[pside] >= 0
        )
        if smudged or (
            scores[pside] >= rules["target"] and (made or not rules["must_make_bid_to_win"])
        ):
            winner = pside
    got = record.get("winner")
    if got != winner or isinstance(got, bool):
        out.append(f"winner is {got!r}, expected {winner!r}")
