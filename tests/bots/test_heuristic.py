"""The heuristic reads the table: sensible bids, the dealer's options, point cards."""

from __future__ import annotations

from pitch.bots.heuristic import HeuristicBot
from pitch.engine import GameState, Rules, parse_action, parse_card
from pitch.engine.actions import bid_action
from pitch.fastcore.search import hand_estimate


def hands_with(seat0: list[str], players: int = 4) -> list[int]:
    """Seat 0 gets the given cards; the others get fixed junk from the rest."""
    used = {parse_card(c) for c in seat0}
    rest = [c for c in range(52) if c not in used]
    masks = [sum(1 << parse_card(c) for c in seat0)]
    for s in range(1, players):
        masks.append(sum(1 << c for c in rest[(s - 1) * 6 : s * 6]))
    return masks


def state_for(seat0: list[str], dealer: int, bids: list[str], rules: Rules) -> GameState:
    st = GameState(rules, dealer=dealer)
    st.deal(hands_with(seat0, rules.players))
    for b in bids:
        st.apply(parse_action(b))
    return st


def test_no_bid_of_four_without_point_cards() -> None:
    # Seat 0 left of dealer 3, a long but pointless holding: no A/K/J, no low trump.
    st = state_for(["9h", "8h", "7h", "6h", "9c", "8d"], 3, [], Rules())
    a = HeuristicBot().act(st.view(0))
    assert a != bid_action(4)


def test_strong_hand_bids() -> None:
    st = state_for(["Ah", "Kh", "Jh", "2h", "Th", "As"], 3, [], Rules())
    assert HeuristicBot().act(st.view(0)) >= bid_action(3)


def test_forced_dealer_bids_two() -> None:
    # R3.5: everyone passed to the dealer (seat 0) with a weak hand: the minimum, 2.
    st = state_for(["9h", "7c", "5d", "8s", "6c", "4d"], 0, ["pass", "pass", "pass"], Rules())
    assert HeuristicBot().act(st.view(0)) == bid_action(2)


def test_dealer_steals_a_cheap_bid_with_a_good_hand() -> None:
    # R3.6: seat 1 bid 1; the dealer holds a strong hand and takes it at the same level.
    st = state_for(["Ah", "Kh", "Jh", "2h", "Th", "5s"], 0, ["bid 1", "pass", "pass"], Rules())
    a = HeuristicBot().act(st.view(0))
    assert a >= bid_action(1)
    no_steal = state_for(
        ["Ah", "Kh", "Jh", "2h", "Th", "5s"],
        0,
        ["bid 1", "pass", "pass"],
        Rules(dealer_may_steal=False),
    )
    assert HeuristicBot().act(no_steal.view(0)) in (parse_action("pass"), *range(54, 57))


def test_estimate_prefers_point_cards() -> None:
    weak = sum(1 << parse_card(c) for c in ["9h", "8h", "7h", "6h", "9c", "8d"])
    strong = sum(1 << parse_card(c) for c in ["Ah", "Kh", "Jh", "2h", "9c", "8d"])
    assert hand_estimate(strong, 4, False)[1] > hand_estimate(weak, 4, False)[1] + 1.5


def test_pitcher_leads_its_best_suit() -> None:
    st = state_for(["Ah", "Kh", "Jh", "2h", "Th", "5s"], 3, ["bid 4"], Rules())
    assert HeuristicBot().act(st.view(0)) == parse_card("Ah")
