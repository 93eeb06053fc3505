"""Every illegal-action path: the right rule id, the seat, the legal alternatives, and
the state left exactly as it was."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pitch.engine import (
    BID,
    DEAL,
    OVER,
    PLAY,
    IllegalActionError,
    PitchError,
    Rules,
    parse_action,
    parse_card,
)
from pitch.engine import refusals as k
from pitch.engine.actions import NUM_ACTIONS
from pitch.engine.legality import english, refusal
from pitch.engine.refusals import KEYS, Refusal
from pitch.engine.state import GameState
from tests.conftest import ALL_TABLES
from tests.engine.test_rules import D4, D4_AUCTION, D4_TRICKS, nine_points_set_back
from tests.support.deals import dealt, play, snapshot


def fresh() -> GameState:
    return GameState(Rules(), dealer=0)


def auction() -> GameState:
    return dealt(Rules(), D4)


def after_bid_2() -> GameState:
    return play(auction(), "bid 2")


def all_passed() -> GameState:
    return play(auction(), "pass", "pass", "pass")


def steal_spot(rules: Rules) -> GameState:
    return play(dealt(rules, D4), "bid 2", "pass", "pass")


def playing() -> GameState:
    return play(auction(), *D4_AUCTION)


def clubs_led() -> GameState:
    return play(auction(), *D4_AUCTION, *D4_TRICKS[0], "6c")


def hearts_led() -> GameState:
    return play(auction(), *D4_AUCTION, "Ah")


def partly_dealt() -> GameState:
    s = fresh()
    s.apply(parse_card("As"))
    return s


# (name, make state, action, rule, seat, legal alternatives as text or None to skip,
#  the refusal's key and arguments)
Case = tuple[
    str, Callable[[], GameState], object, str, int | None, list[str] | None, str, dict[str, int]
]
LAST = {"last": NUM_ACTIONS - 1}
CASES: list[Case] = [
    ("bid while dealing", fresh, parse_action("bid 2"), "R2.2", None, None, k.DEAL_FIRST, {}),
    ("card dealt twice", partly_dealt, parse_card("As"), "R2.1", None, None, k.ALREADY_DEALT, {}),
    ("card in the auction", auction, parse_card("Ah"), "R3.1", 1, None, k.AUCTION_NOT_OVER, {}),
    ("out of range in the auction", auction, 57, "R3.2", 1, None, k.NOT_AN_ACTION, LAST),
    ("negative action", auction, -1, "R3.2", 1, None, k.NOT_AN_ACTION, LAST),
    ("bool action", auction, True, "R3.2", 1, None, k.NOT_AN_ACTION, LAST),
    ("float action", auction, 52.0, "R3.2", 1, None, k.NOT_AN_ACTION, LAST),
    ("text action", auction, "pass", "R3.2", 1, None, k.NOT_AN_ACTION, LAST),
    (
        "bid not higher",
        after_bid_2,
        parse_action("bid 2"),
        "R3.3",
        2,
        ["pass", "bid 3", "bid 4"],
        k.BID_HIGHER,
        {"high": 2},
    ),
    (
        "bid lower",
        after_bid_2,
        parse_action("bid 1"),
        "R3.3",
        2,
        ["pass", "bid 3", "bid 4"],
        k.BID_HIGHER,
        {"high": 2},
    ),
    (
        "dealer passes",
        all_passed,
        parse_action("pass"),
        "R3.5",
        0,
        ["bid 2", "bid 3", "bid 4"],
        k.DEALER_MUST_BID,
        {},
    ),
    (
        "dealer bids 1",
        all_passed,
        parse_action("bid 1"),
        "R3.5",
        0,
        ["bid 2", "bid 3", "bid 4"],
        k.DEALER_MUST_BID,
        {},
    ),
    (
        "steal without the option",
        lambda: steal_spot(Rules(dealer_may_steal=False)),
        parse_action("bid 2"),
        "R3.6",
        0,
        ["pass", "bid 3", "bid 4"],
        k.NO_STEAL,
        {"high": 2},
    ),
    (
        "dealer under the bid it may steal",
        lambda: steal_spot(Rules()),
        parse_action("bid 1"),
        "R3.6",
        0,
        ["pass", "bid 2", "bid 3", "bid 4"],
        k.STEAL_OR_HIGHER,
        {"high": 2},
    ),
    (
        "bid 1 under min_bid 2",
        lambda: dealt(Rules(min_bid=2), D4),
        parse_action("bid 1"),
        "R3.2",
        1,
        ["pass", "bid 2", "bid 3", "bid 4"],
        k.LOWEST_BID,
        {"min_bid": 2},
    ),
    ("pass in the play", playing, parse_action("pass"), "R4.2", 1, None, k.AUCTION_OVER, {}),
    ("bid in the play", playing, parse_action("bid 3"), "R4.2", 1, None, k.AUCTION_OVER, {}),
    ("out of range in the play", playing, 99, "R4.2", 1, None, k.NOT_AN_ACTION, LAST),
    (
        "card not held",
        playing,
        parse_card("As"),
        "R4.2",
        1,
        None,
        k.NOT_IN_HAND,
        {"card": parse_card("As")},
    ),
    (
        "not following suit",
        clubs_led,
        parse_card("9d"),
        "R4.3",
        2,
        ["9c", "Tc", "3h"],
        k.FOLLOW_SUIT,
        {"suit": 0, "trump": 2},
    ),
    (
        "not following trump",
        hearts_led,
        parse_card("9c"),
        "R4.3",
        2,
        ["2h", "3h"],
        k.TRUMP_LED,
        {"suit": 2},
    ),
    (
        "after the game",
        lambda: nine_points_set_back(Rules()),
        parse_card("2c"),
        "R6.2",
        None,
        [],
        k.GAME_OVER,
        {},
    ),
]


@pytest.mark.parametrize(("name", "make", "action", "rule", "seat", "legal", "key", "args"), CASES)
def test_illegal_action(
    name: str,
    make: Callable[[], GameState],
    action: object,
    rule: str,
    seat: int | None,
    legal: list[str] | None,
    key: str,
    args: dict[str, int],
) -> None:
    state = make()
    before = snapshot(state)
    expected_legal = state.legal_actions().texts() if state.phase in (BID, PLAY) else None
    with pytest.raises(IllegalActionError) as e:
        state.apply(action)  # type: ignore[arg-type]
    err = e.value
    assert isinstance(err, ValueError)
    assert err.rule == rule, str(err)
    assert err.seat == seat
    if legal is not None:
        assert list(err.legal) == legal
    if expected_legal is not None:
        assert list(err.legal) == expected_legal
    assert str(err).startswith(f"{rule}: ")
    # The reason as data, for a front end to translate, and the same words in English.
    assert err.refusal == Refusal(rule, key, args)
    assert err.reason == english(err.refusal)
    assert err.reason in str(err)
    assert snapshot(state) == before  # nothing changed
    # The friendly check agrees and also changes nothing.
    assert not state.can_apply(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.verify(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.push(action)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_legal_actions_are_accepted_by_verify() -> None:
    s = clubs_led()
    for a in s.legal_actions():
        s.verify(a)
        assert s.can_apply(a)


def test_numpy_style_integers_are_accepted() -> None:
    class Index:
        def __index__(self) -> int:
            return parse_action("bid 2")

    s = auction()
    s.apply(Index())  # type: ignore[arg-type]
    assert s.bids == ((1, 2),)


def test_deal_errors_leave_state_unchanged() -> None:
    s = fresh()
    before = snapshot(s)
    for bad in ([1, 2, 3, 4], [0] * 4, [(1 << 6) - 1] * 4, [-1, 0, 0, 0], ["x"] * 4):
        with pytest.raises(PitchError):
            s.deal(bad)  # type: ignore[arg-type]
        assert snapshot(s) == before
    s = playing()
    before = snapshot(s)
    for f in (lambda: s.deal_random(random.Random(1)), lambda: s.deal([0, 0, 0, 0])):
        with pytest.raises(IllegalActionError) as e:
            f()
        assert e.value.rule == "R2.2"
        assert snapshot(s) == before


def test_pop_without_push() -> None:
    with pytest.raises(PitchError):
        fresh().pop()


def test_every_key_has_a_case() -> None:
    """Each refusal key is reached by some case above (or by the two below)."""
    reached = {case[6] for case in CASES} | {k.NOT_YOUR_TURN, k.HAND_UNDER_WAY}
    assert reached == set(KEYS)


def test_english_fills_suits_and_cards() -> None:
    assert english(Refusal("R4.3", k.FOLLOW_SUIT, {"suit": 0, "trump": 2})) == (
        "You must follow suit (clubs) or play a trump (hearts)"
    )
    assert english(Refusal("R4.2", k.NOT_IN_HAND, {"card": parse_card("Td")})) == (
        "Td is not in your hand"
    )


def test_other_seats_are_refused_as_not_their_turn() -> None:
    for state, rule in ((after_bid_2(), "R3.1"), (clubs_led(), "R4.2")):
        for seat in range(state.n):
            if seat != state.to_act:
                view = state.view(seat)
                for a in range(NUM_ACTIONS):
                    assert refusal(view, a) == Refusal(rule, k.NOT_YOUR_TURN)


def test_dealing_and_game_over_views_refuse_everything() -> None:
    for state, why in (
        (fresh(), Refusal("R2.2", k.DEAL_FIRST)),
        (nine_points_set_back(Rules()), Refusal("R6.2", k.GAME_OVER)),
    ):
        assert state.phase in (DEAL, OVER)
        for seat in range(state.n):
            assert all(refusal(state.view(seat), a) == why for a in range(NUM_ACTIONS))


@pytest.mark.parametrize("rules", ALL_TABLES, ids=str)
def test_refusal_agrees_with_legal_mask(rules: Rules) -> None:
    """On random positions of every table: a seat's refusal is ``None`` exactly when
    the action is legal for it, and the refused ones name a known key."""
    rng = random.Random(f"refusal {rules}")
    for _game in range(3):
        state = GameState.new_game(rules, rng)
        while state.phase != OVER and len(state.history) < 4:
            if state.phase == DEAL:
                state.deal_random(rng)
                continue
            mask = state.legal_mask()
            for seat in range(state.n):
                view = state.view(seat)
                for a in range(NUM_ACTIONS):
                    why = refusal(view, a)
                    legal = seat == state.to_act and bool(mask >> a & 1)
                    assert (why is None) == legal, (state, seat, a, why)
                    assert why is None or why.key in KEYS
            state.apply(rng.choice(list(state.legal_actions())))
