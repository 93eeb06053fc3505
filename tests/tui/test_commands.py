"""The terminal's small words (issue 17): a key for the last trick, the pitcher told
that the lead makes trump, and a refusal that does not say "pick 1 to 1"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pitch.engine import PLAY, Rules
from pitch.i18n import set_language
from pitch.tui.app import _prompt, last_trick_text
from pitch.tui.moves import LAST, InputError, parse_input
from pitch.tui.render import play_choices
from pitch.tui.session import Session


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def _to_play(seed: int = 3) -> Session:
    """A heads-up game, played by bots for the human too, until the human plays a card."""
    s = Session.new(Rules(players=2), levels=["random"], seed=seed)
    while True:
        s.deal_if_needed()
        if s.human_to_act() and s.state.phase == PLAY:
            return s
        if s.human_to_act():
            s.play(s.hint())
        else:
            s.bot_move()


def test_l_shows_the_last_trick_in_any_language() -> None:
    s = _to_play()
    assert parse_input("l", s.state, play_choices(s)) is LAST
    set_language("ru")
    assert parse_input("взятка", s.state, play_choices(s)) is LAST
    set_language("en")
    before = last_trick_text(s, symbols=False)
    while not s.state.tricks and not s.state.history:
        if s.human_to_act():
            s.play(s.hint())
        else:
            s.bot_move()
        s.deal_if_needed()
    if not s.state.tricks and s.state.history:
        trick = s.state.history[-1].tricks[-1]
    else:
        trick = s.state.tricks[-1]
    text = last_trick_text(s, symbols=False)
    assert text != before and text.startswith("Last trick: ")
    taker = "You took it." if trick.winner == s.human else f"{s.shown_names[trick.winner]} took it."
    assert text.endswith(taker), text
    set_language("ru")
    assert last_trick_text(s, symbols=False).startswith("Последняя взятка: ")


def test_no_trick_yet_and_the_lead_that_makes_trump() -> None:
    for seed in range(40):
        s = _to_play(seed)
        if not s.state.tricks and not s.state.trick and not s.state.history:
            break
    else:
        raise AssertionError("no seed has the human lead the first trick")
    assert last_trick_text(s, symbols=False) == "No trick has been played yet."
    assert _prompt(s).startswith("Your lead sets trump")
    set_language("ru")
    assert _prompt(s).startswith("Ваш первый ход задаёт козырь")


def test_one_move_is_not_pick_1_to_1() -> None:
    s = _to_play()
    with pytest.raises(InputError) as e:
        parse_input("7", s.state, [play_choices(s)[0]])
    assert "your only move is 1" in str(e.value) and "1 to 1" not in str(e.value)
    with pytest.raises(InputError, match="pick 1 to 2"):
        parse_input("7", s.state, play_choices(s)[:2])
