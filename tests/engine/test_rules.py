"""One or more tests per rule of RULES.md (R1.1-R6.2), each citing its id, on exact deals."""

from __future__ import annotations

import random

import pytest

from pitch.engine import (
    BID,
    CHANCE,
    DEAL,
    OVER,
    PLAY,
    IllegalActionError,
    PitchError,
    Rules,
    RulesError,
    card_str,
    deal_order,
    game_points,
    parse_action,
    parse_card,
)
from pitch.engine.state import GameState
from tests.support.deals import (
    D4,
    D4_AUCTION,
    D4_TRICKS,
    D4_WINNERS,
    cards,
    d4,
    dealt,
    finish_hand,
    play,
    play_d4,
    words,
)


def rule_of(excinfo: pytest.ExceptionInfo[IllegalActionError]) -> str:
    return excinfo.value.rule


# ------------------------------------------------------------------ R1 table


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_r1_1_two_to_seven_players(n: int) -> None:
    """R1.1: 2 to 7 players; each gets six cards."""
    s = GameState(Rules(players=n))
    s.deal_random(random.Random(n))
    assert [h.bit_count() for h in s.hands] == [6] * n


@pytest.mark.parametrize("n", [0, 1, 8, 52])
def test_r1_1_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(RulesError, match=r"R1\.1"):
        Rules(players=n)


def test_r1_1_four_is_the_default() -> None:
    assert Rules().players == 4


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7])
def test_r1_2_partnerships_need_four_players(n: int) -> None:
    with pytest.raises(RulesError, match=r"R1\.2"):
        Rules(players=n, partnerships=True)


def test_r1_2_partners_sit_opposite_and_pool_their_cards() -> None:
    """R1.2: seats 0+2 against 1+3; a team's captured cards count together."""
    rules = Rules(partnerships=True)
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    s = play_d4(rules)
    res = s.history[-1].result
    assert res is not None
    # Seat 1 took 39 game points and seat 3 took 2: team 1 counts 41 (R5.4).
    assert res.game_counts == (2, 41)
    assert res.won == (0, 3) and s.scores == [0, 3]


def test_r1_3_seats_are_clockwise() -> None:
    """R1.3: left of seat s is s+1 mod n: the auction and play wrap from n-1 to 0."""
    s = dealt(Rules(), D4, dealer=2)
    seen = []
    for _ in range(4):
        seen.append(s.current_player())
        s.apply(parse_action("pass") if seen[-1] != 2 else parse_action("bid 2"))
    assert seen == [3, 0, 1, 2]


def test_r1_4_a_side_is_a_player_or_a_team() -> None:
    assert Rules(players=5).num_sides == 5
    assert Rules(partnerships=True).num_sides == 2
    assert len(GameState(Rules(players=6)).scores) == 6


# ------------------------------------------------------------------- R2 deal


def test_r2_1_standard_deck_and_rank_order() -> None:
    """R2.1: 52 distinct cards; A K Q J T 9 ... 2 from high to low."""
    texts = {card_str(c) for c in range(52)}
    assert len(texts) == 52
    order = [parse_card(r + "s") for r in "AKQJT98765432"]
    assert order == sorted(order, reverse=True)


def test_r2_1_a_card_cannot_be_dealt_twice() -> None:
    s = GameState(Rules(players=2))
    with pytest.raises(PitchError, match=r"R2\.1"):
        s.deal([cards("As Ks Qs Js Ts 9s"), cards("As 2c 3c 4c 5c 6c")])
    s.apply(parse_card("As"))  # chance: one card at a time
    with pytest.raises(IllegalActionError) as e:
        s.apply(parse_card("As"))
    assert rule_of(e) == "R2.1" and e.value.seat is None


def test_r2_2_six_cards_three_at_a_time_from_the_dealers_left() -> None:
    assert deal_order(4, 0) == (1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0) * 2
    assert deal_order(3, 2) == (0, 0, 0, 1, 1, 1, 2, 2, 2) * 2
    s = GameState(Rules(players=3), dealer=2)
    for k, c in enumerate(range(18)):
        assert s.current_player() == CHANCE
        s.apply(c)
        assert s.dealt[deal_order(3, 2)[k]] >> c & 1
    assert s.phase == BID and [h.bit_count() for h in s.hands] == [6, 6, 6]


def test_r2_2_a_deal_needs_six_cards_per_seat() -> None:
    s = GameState(Rules(players=2))
    with pytest.raises(PitchError, match=r"R2\.2"):
        s.deal([cards("As Ks Qs Js Ts"), cards("2c 3c 4c 5c 6c 7c")])
    with pytest.raises(PitchError, match=r"R2\.2"):
        s.deal([cards("As Ks Qs Js Ts 9s")])


def test_r2_3_only_dealt_cards_count() -> None:
    """R2.3: with 4 players 24 cards are in play; undealt trumps score nothing."""
    s = play_d4()
    res = s.history[-1].result
    assert res is not None
    assert sum(m.bit_count() for m in s.history[-1].deal) == 24
    # Hearts are trump and Jh was not dealt: no Jack point (R5.3), High is the Ah.
    assert res.jack is None and res.jack_card is None
    assert card_str(res.high_card or 0) == "Ah" and card_str(res.low_card or 0) == "2h"
    assert sum(res.game_counts) == sum(game_points(cards(h)) for h in D4)


def test_r2_4_first_dealer_random_then_passes_left() -> None:
    dealers = {GameState.new_game(Rules(), random.Random(i)).dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    s = play_d4()
    assert s.phase == DEAL and s.dealer == 1 and s.history[-1].dealer == 0


# ---------------------------------------------------------------- R3 auction


def test_r3_1_auction_starts_left_of_dealer_and_ends_with_dealer() -> None:
    s = d4()
    order = []
    for a in ("pass", "bid 1", "pass", "bid 2"):
        order.append(s.current_player())
        play(s, a)
    assert order == [1, 2, 3, 0]
    assert s.phase == PLAY and s.bids == ((1, 0), (2, 1), (3, 0), (0, 2))


def test_r3_1_a_card_during_the_auction_is_refused() -> None:
    s = d4()
    with pytest.raises(IllegalActionError) as e:
        s.apply(parse_card("Ah"))
    assert rule_of(e) == "R3.1" and e.value.seat == 1


def test_r3_2_bids_are_pass_or_one_to_four() -> None:
    s = d4()
    assert s.legal_actions().texts() == ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]


def test_r3_3_a_bid_must_be_higher() -> None:
    s = play(d4(), "bid 2")
    assert s.legal_actions().texts() == ["pass", "bid 3", "bid 4"]
    for a in ("bid 1", "bid 2"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(parse_action(a))
        assert rule_of(e) == "R3.3" and e.value.seat == 2


def test_r3_4_a_bid_of_four_ends_the_auction() -> None:
    s = play(d4(), "pass", "bid 4")
    assert s.phase == PLAY and s.pitcher == 2 and s.contract == 4
    assert s.bids == ((1, 0), (2, 4)) and s.current_player() == 2


def test_r3_4_the_dealer_cannot_steal_a_four() -> None:
    """Nobody bids after a 4, the dealer included: the record lists no later bids."""
    s = play(d4(), "bid 4")
    assert s.phase == PLAY and s.bids == ((1, 4),)


def test_r3_5_all_pass_the_dealer_must_bid_two_or_more() -> None:
    """Worked case: all pass: the dealer's only legal bids are 2, 3 and 4."""
    s = play(d4(), "pass", "pass", "pass")
    assert s.current_player() == 0
    assert s.legal_actions().texts() == ["bid 2", "bid 3", "bid 4"]
    for a in ("pass", "bid 1"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(parse_action(a))
        assert rule_of(e) == "R3.5" and e.value.seat == 0
    play(s, "bid 2")
    assert s.pitcher == 0 and s.contract == 2


def test_r3_6_dealers_steal() -> None:
    """Worked case: seat 1 bids 2, seats 2 and 3 pass, the dealer bids 2: the dealer
    is pitcher with a contract of 2."""
    s = play(d4(), "bid 2", "pass", "pass")
    assert s.legal_actions().texts() == ["pass", "bid 2", "bid 3", "bid 4"]
    play(s, "bid 2")
    assert s.pitcher == 0 and s.contract == 2 and s.current_player() == 0


def test_r3_6_steal_at_one_and_from_a_partner() -> None:
    s = play(d4(), "bid 1", "pass", "pass", "bid 1")
    assert s.pitcher == 0 and s.contract == 1
    s = play(d4(Rules(partnerships=True)), "pass", "bid 3", "pass", "bid 3")
    assert s.pitcher == 0 and s.contract == 3


def test_r3_6_dealer_may_pass_or_outbid() -> None:
    s = play(d4(), "bid 2", "pass", "pass", "pass")
    assert s.pitcher == 1 and s.contract == 2
    s = play(d4(), "bid 2", "pass", "pass", "bid 3")
    assert s.pitcher == 0 and s.contract == 3


def test_r3_7_highest_bidder_is_pitcher() -> None:
    s = play(d4(), "bid 1", "bid 3", "pass", "pass")
    assert s.pitcher == 2 and s.contract == 3 and s.leader == 2


# ------------------------------------------------------------------- R4 play


def test_r4_1_pitcher_leads_and_sets_trump() -> None:
    s = play(d4(), *D4_AUCTION)
    assert s.current_player() == 1 and s.trump == -1
    assert s.legal_mask() == cards(D4[1])  # any card may be led
    play(s, "6c")
    assert s.trump == 0  # clubs


def test_r4_2_clockwise_one_card_each() -> None:
    s = play(d4(), *D4_AUCTION, "Ah")
    assert s.current_player() == 2
    play(s, "2h")
    assert s.current_player() == 3


def test_r4_2_only_cards_in_hand() -> None:
    s = play(d4(), *D4_AUCTION)
    for a in ("As", "pass", "bid 3"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(parse_action(a))
        assert rule_of(e) == "R4.2" and e.value.seat == 1


def test_r4_3_follow_suit_or_trump() -> None:
    s = play(d4(), *D4_AUCTION, *D4_TRICKS[0], "6c")
    # Seat 2 holds clubs and trump: clubs or hearts only.
    assert s.legal_mask() == cards("9c Tc 3h")
    with pytest.raises(IllegalActionError) as e:
        s.apply(parse_card("9d"))
    assert rule_of(e) == "R4.3" and e.value.seat == 2
    assert set(e.value.legal) == {"9c", "Tc", "3h"}


def test_r4_3_trump_led_must_be_followed_with_trump() -> None:
    s = play(d4(), *D4_AUCTION, "Ah")
    assert s.legal_mask() == cards("2h 3h")
    with pytest.raises(IllegalActionError) as e:
        s.apply(parse_card("9c"))
    assert rule_of(e) == "R4.3" and "trump" in e.value.reason


def test_r4_4_void_may_play_anything() -> None:
    s = play(d4(), *D4_AUCTION, "Ah", "2h")
    assert s.legal_mask() == cards(D4[3])  # seat 3 holds no hearts
    s = play(d4(), *D4_AUCTION, *D4_TRICKS[0], *D4_TRICKS[1], "9c", "Jc")
    assert s.legal_mask() == cards("As Ks 4d 5d")  # seat 0 has no clubs left


def test_r4_5_and_r4_6_trick_winners_lead() -> None:
    s = play(d4(), *D4_AUCTION)
    for k, t in enumerate(D4_TRICKS[:-1]):
        play(s, *t)
        assert s.tricks[k].winner == D4_WINNERS[k]
        assert s.current_player() == D4_WINNERS[k]  # R4.6
    play(s, *D4_TRICKS[-1])
    tricks = s.history[-1].tricks
    assert len(tricks) == 6
    assert tuple(t.winner for t in tricks) == D4_WINNERS
    assert [t.leader for t in tricks] == [1, 1, 2, 3, 3, 1]


def test_r4_5_highest_of_suit_led_without_trump() -> None:
    s = play(d4(), *D4_AUCTION, *D4_TRICKS[0], *D4_TRICKS[1], *D4_TRICKS[2])
    assert s.tricks[2].winner == 3  # Jc beats 9c and 7c; the 4d is off-suit


# ---------------------------------------------------------------- R5 scoring


def test_r5_1_to_r5_4_and_r5_6_on_the_fixed_hand() -> None:
    s = play_d4()
    res = s.history[-1].result
    assert res is not None
    assert res.high == 1  # R5.1: Ah, in seat 1's first trick
    assert res.low == 1  # R5.2: 2h, held by seat 2 but captured by seat 1
    assert res.jack is None  # R5.3: Jh not dealt
    assert res.game_counts == (0, 39, 2, 2) and res.game == 1  # R5.4
    assert res.won == (0, 3, 0, 0) and res.made  # R5.6: 3 >= 2
    assert s.scores == [0, 3, 0, 0]


def test_r5_2_low_goes_to_its_captor() -> None:
    s = play_d4()
    hist = s.history[-1]
    assert hist.deal[2] >> parse_card("2h") & 1  # seat 2 held it
    assert hist.result is not None and hist.result.low == 1


def test_r5_5_lone_trump_scores_high_and_low() -> None:
    """Worked case: 4 players, trump hearts, 2h the only heart dealt: 2 points to its
    captor, which is the pitcher (a lone trump is always the opening lead)."""
    hands = ["As Ks Qs 2c 3c 4c", "2h Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td 9d", "Js Ts 9s 8s 7s 9c"]
    s = finish_hand(play(dealt(Rules(), hands), "bid 2", "pass", "pass", "pass", "2h"))
    res = s.history[-1].result
    assert res is not None and res.trump == 2
    assert res.high == res.low == 1 and res.high_card == res.low_card == parse_card("2h")
    assert res.jack is None and res.made


def test_r5_5_lone_jack_scores_three() -> None:
    """Worked case: trump spades, Js the only spade dealt: its captor scores 3."""
    hands = ["Ah Kh Qh 2c 3c 4c", "Js Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td 9d", "2h 3h 4h 5h 6h 9c"]
    s = finish_hand(play(dealt(Rules(), hands), "bid 3", "pass", "pass", "pass", "Js"))
    res = s.history[-1].result
    assert res is not None and res.high == res.low == res.jack == 1
    assert res.won[1] >= 3 and res.made


def test_r5_4_no_game_cards_is_a_tie() -> None:
    """Worked case: three players, nobody captures a ten or a face card or ace: 0-0-0,
    a tie, no Game point."""
    hands = ["2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d", "2h 3h 4h 5h 6h 7h"]
    s = finish_hand(play(dealt(Rules(players=3), hands), "bid 1", "pass", "pass"))
    res = s.history[-1].result
    assert res is not None and res.game_counts == (0, 0, 0) and res.game is None


TIE_DEAL = ["Kc Ac Jd 9s Qs As", "Qc 8d Kd Ad 3s 7s", "3c 4c 9c Tc Td 8h"]
TIE_PLAY = words(
    "Qc 3c Ac",
    "Jd Ad Tc",
    "Td As Kd",
    "8d 8h 9s",
    "3s 9c Qs",
    "4c Kc 7s",
)


def test_r5_4_game_tie_between_two_leaders() -> None:
    """Worked case: A and B both count 17, C counts 9: no Game point."""
    s = play(dealt(Rules(players=3), TIE_DEAL), "bid 2", "pass", "pass", *TIE_PLAY)
    res = s.history[-1].result
    assert res is not None and res.game_counts == (9, 17, 17) and res.game is None
    assert res.won == (2, 0, 0) and res.delta == (2, -2, 0)


def test_r5_4_game_tie_scored_directly() -> None:
    from pitch.engine import score_hand

    res = score_hand(
        num_sides=3,
        side_of=(0, 1, 2),
        trump=3,
        dealt=(cards("Tc Ac Kc 2s 3s 4s"), cards("Td Ad Kd 5s 6s 7s"), cards("Ah Kh Qh 2h 3h 4h")),
        captured=(
            cards("Tc Ac Kc"),
            cards("Td Ad Kd 2s 3s 4s 5s 6s 7s"),
            cards("Ah Kh Qh 2h 3h 4h"),
        ),
        pitcher=0,
        bid=1,
    )
    assert res.game_counts == (17, 17, 9)
    assert res.game is None


SETBACK_DEAL = ["5d Qd 5h 7h Jh As", "3c 8c Ac 6d Kd 8h", "7c Kc 7d Td Qs Ks", "2c 9c Jc Jd 2h 7s"]
SETBACK_PLAY = words(
    "Kd 7d Jd Qd",
    "3c Td 9c Jh",
    "Kc Jc 7h 8c",
    "Qs 7s As Ac",
    "5h 6d Ks 2h",
    "8h 7c 2c 5d",
)


def test_r5_6_and_r5_7_set_back() -> None:
    """Worked case: pitcher bid 3 and won High and Jack (2 points): it scores -3; the
    others score what they won."""
    s = play(dealt(Rules(), SETBACK_DEAL), "bid 3", "pass", "pass", "pass", *SETBACK_PLAY)
    res = s.history[-1].result
    assert res is not None and res.pitcher == 1 and res.bid == 3
    assert (res.high, res.jack) == (1, 1) and res.low == 0 and res.game == 2
    assert res.won == (1, 2, 1, 0) and not res.made
    assert res.delta == (1, -3, 1, 0) and s.scores == [1, -3, 1, 0]


def test_r5_6_scores_can_go_negative() -> None:
    s = dealt(Rules(), SETBACK_DEAL)
    s.scores = [0, 1, 0, 0]
    play(s, "bid 3", "pass", "pass", "pass", *SETBACK_PLAY)
    assert s.scores[1] == -2


# -------------------------------------------------------------------- R6 end


def test_r6_1_target_any_positive() -> None:
    for t in (7, 11, 15, 21, 1, 100):
        assert Rules(target=t).target == t
    for t in (0, -7):
        with pytest.raises(RulesError, match=r"R6\.1"):
            Rules(target=t)


NINE_DEAL = ["9c 2d 2h Jh 9s As", "4c 5c 6c Td 3h 8s", "3c 7c 4d 5d Qd Kd", "Tc 9d 5h 4s 7s Js"]
NINE_PLAY = words(
    "Js As 8s 3c",
    "9c 6c 7c Tc",
    "9d 2d Td Qd",
    "Kd 5h 2h 3h",
    "5d 7s 9s 5c",
    "Jh 4c 4d 4s",
)


def nine_points_set_back(rules: Rules) -> GameState:
    s = dealt(rules, NINE_DEAL, dealer=2)
    s.scores = [0, 0, 0, 9]
    return play(s, "bid 2", "pass", "pass", "pass", *NINE_PLAY)


def test_r6_2_pitcher_set_back_onto_the_target_wins() -> None:
    """Worked case: target 7, seat 3 has 9, pitches 2 and is set back: it ends the hand
    it pitched on 7, so it wins (R6.2 read literally)."""
    s = nine_points_set_back(Rules())
    res = s.history[-1].result
    assert res is not None and not res.made and res.delta[3] == -2
    assert s.scores[3] == 7 and s.winner == 3 and s.phase == OVER and s.is_terminal()


def test_r6_2_non_pitching_side_over_target_plays_on() -> None:
    """Worked case: target 7, seat 2 has 8 but seat 1 pitched and finished on 5: play on.
    Seat 2 wins only after a hand it pitched."""
    s = d4()
    s.scores = [0, 2, 8, 0]
    play(s, *D4_AUCTION)
    for t in D4_TRICKS:
        play(s, *t)
    assert s.scores == [0, 5, 8, 0]
    assert s.winner is None and s.phase == DEAL and s.dealer == 1
    s.deal_random(random.Random(3))
    play(s, "bid 1", "pass", "pass", "pass")  # seat 2 is left of dealer 1
    assert s.pitcher == 2
    finish_hand(s)
    assert s.scores[2] >= 7 and s.winner == 2 and s.phase == OVER


def test_r6_2_game_over_refuses_actions() -> None:
    s = nine_points_set_back(Rules())
    with pytest.raises(IllegalActionError) as e:
        s.apply(parse_action("pass"))
    assert rule_of(e) == "R6.2" and e.value.seat is None and e.value.legal == ()
    assert s.legal_mask() == 0
