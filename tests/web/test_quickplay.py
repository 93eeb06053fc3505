"""Quick play in the browser (issue 17): one button seats a player; a second player
with the same rules lands at the same table, watches until the hand ends (told so, in
their language), then plays the seat the bot gave up."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.a11y import assert_accessible
from tests.web.conftest import PHONE, new_page, seat_in, shot, shots
from tests.web.test_play import MY_TURN, _state, _take_turn

WAITING = "() => window.pitchTable?.waiting !== null && window.pitchTable?.waiting !== undefined"


def _quick(page: Any, url: str, name: str) -> str:
    page.goto(url + "/")
    page.fill("input[name=player-name]", name)
    page.select_option("select[name=quick-players]", "3")
    page.select_option("select[name=target]", "15")  # rules no other test quick-plays
    page.click("#quick-play")
    page.wait_for_function("() => location.pathname.startsWith('/t/')")
    return str(page.url.rstrip("/").split("/")[-1])


def test_quick_play_two_strangers_one_table(browser: Any, server_url: str) -> None:
    ann = new_page(browser)
    ann.goto(server_url + "/")
    expect(ann.locator("#quick-play")).to_be_visible()
    shot(ann, "lobby-quick-play-laptop-en")
    table = _quick(ann, server_url, "Ann")
    ann.wait_for_function(MY_TURN, timeout=margin_ms(30))
    st = _state(ann)
    if not st["game"]["bids"]:
        _take_turn(ann, st)  # Ann bids: the hand is under way, nobody can take a seat now
        shot(ann, "table-hint-laptop-en")  # the hint she followed, and why
    bob = new_page(browser, locale="ru-RU", **PHONE)
    bob.goto(server_url + "/")
    expect(bob.locator("#quick-play")).to_have_text("Играть сейчас")
    shot(bob, "lobby-quick-play-phone-ru")
    # No name: said next to the field, in his language, until he types one.
    bob.fill("input[name=player-name]", "  ")
    bob.click("#quick-play")
    bob.click("#quick-play")  # a second try: still one message
    expect(bob.locator("#player-name-error")).to_have_text("Введите своё имя.")
    expect(bob.locator("input[name=player-name]")).to_have_attribute("aria-invalid", "true")
    expect(bob.locator("input[name=player-name]")).to_be_focused()
    shot(bob, "lobby-blank-name-phone-ru", full=False)
    bob.fill("input[name=player-name]", "Б")
    expect(bob.locator("#player-name-error")).to_have_count(0)
    assert _quick(bob, server_url, "Боб") == table
    bob.wait_for_function(WAITING)
    seat = bob.evaluate("() => window.pitchTable.waiting")
    expect(bob.locator("#notices .arriving")).to_contain_text(
        f"Вы займёте место {seat + 1} вместе с его очками"
    )
    expect(bob.locator("#status")).to_contain_text("Вы наблюдаете")
    shot(bob, "table-quick-waiting-phone-ru")
    expect(ann.locator("#notices .arriving")).to_contain_text(f"Боб takes seat {seat + 1}")
    # Ann plays the hand out; then the seat is Bob's and the bot has left it.
    for _ in range(80):
        if bob.evaluate("s => window.pitchTable.seat === s", seat):
            break
        try:  # Ann's turn, or (the hand over) Bob's seat: whichever comes
            ann.wait_for_function(MY_TURN, timeout=margin_ms(3))
        except PlaywrightTimeout:
            continue
        _take_turn(ann, _state(ann))
    bob.wait_for_function("s => window.pitchTable.seat === s", arg=seat)
    expect(bob.locator("#notices .arriving")).to_have_count(0)
    expect(bob.locator("#hand .card")).not_to_have_count(0)
    expect(ann.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("Боб")
    shot(bob, "table-quick-seated-phone-ru")
    # He sat down in a game under way: told so, and that the bot's score is his now
    # (issue 44 item 12), for the hand he starts with.
    expect(bob.locator("#notices .took-over")).to_have_text(
        f"Вы заняли место {seat + 1} бота в идущей игре: его очки переходят к вам."
    )
    shots(bob, "table-quick-took-over-ru")
    assert_accessible(bob, "the table with the took-over notice (ru)")
    token = bob.evaluate("t => localStorage.getItem('pitch.token.' + t)", table)
    bob_en = new_page(browser)  # the same seat, in English
    seat_in(bob_en, table, seat, token)
    bob_en.goto(f"{server_url}/t/{table}")
    expect(bob_en.locator("#notices .took-over")).to_have_text(
        f"You took over seat {seat + 1} from a bot in a game in progress: "
        "its score comes with the seat."
    )
    shots(bob_en, "table-quick-took-over-en")
    expect(ann.locator("#notices .took-over")).to_have_count(0)  # only the newcomer's
    assert ann.js_errors == [] and bob.js_errors == [] and bob_en.js_errors == []
