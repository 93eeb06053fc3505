"""The first-game walkthrough (walkthrough.js): it opens the first time a player sits at
a table in play, walks through its six steps, each pointing at the part of the table it
explains, keeps the keyboard inside it and closes with Esc, stays closed after a reload,
and comes back from "Show the walkthrough again" (settings dialog, rules page). It fits
a 360 px phone and a desktop in English and Russian; screenshots
``walkthrough-<lang>-<w>x<h>.png``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web import a11y
from tests.web.conftest import PHONE, new_page, play_safe, post_json, seat_in, serving, shot

FRESH = {"speed": "off", "sound": False}  # a browser that has not seen the walkthrough
FITS = "() => document.documentElement.scrollWidth <= innerWidth"
# The dialog inside the window: it is placed again by a "resize" listener, which runs a
# frame after the viewport changes, so this is waited for, not read once.
BOX_INSIDE = """() => {
  const r = document.getElementById("walkthrough").getBoundingClientRect();
  return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;
}"""
TITLES = [
    "Your hand",
    "The auction",
    "The first card makes trump",
    "Follow suit or trump",
    "Four points a hand",
    "Going out",
]


def seated(browser: Any, url: str, left: list[tuple[str, str]], locale: str = "en-US") -> Any:
    """A new browser (walkthrough not seen) in seat 0 of a fresh heads-up table."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    body = {"rules": {"players": 2, "target": 11}, "seats": seats, "options": {"bot_delay": 0.3}}
    table = post_json(url + "/api/tables", body)["id"]
    token = post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    left.append((table, token))
    page = new_page(browser, locale=locale, settings=FRESH)
    seat_in(page, table, 0, token)
    page.goto(f"{url}/t/{table}")
    return page


def seen(page: Any) -> Any:
    return page.evaluate("() => JSON.parse(localStorage.getItem('pitch.settings')).walkthroughDone")


def test_first_sit_down_steps_and_escape(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    page = seated(browser, server_url, leave_after)
    tour = page.locator("#walkthrough")
    expect(tour).to_be_visible()
    expect(page.locator("#walkthrough-title")).to_have_text(TITLES[0])
    expect(page.locator("#walkthrough-step")).to_have_text("Step 1 of 6")
    expect(page.locator("#walkthrough-next")).to_be_focused()
    expect(page.locator("#hand.walkthrough-target")).to_have_count(1)
    expect(page.locator("#walkthrough-back")).to_be_disabled()
    for n, title in enumerate(TITLES[1:], 2):
        page.click("#walkthrough-next")
        expect(page.locator("#walkthrough-title")).to_have_text(title)
        expect(page.locator("#walkthrough-step")).to_have_text(f"Step {n} of 6")
        expect(page.locator(".walkthrough-target")).to_have_count(1)  # it points somewhere
    expect(page.locator("#scores.walkthrough-target")).to_have_count(1)
    expect(page.locator("#walkthrough-text")).to_contain_text("The target is 11 points.")
    expect(page.locator("#walkthrough-next")).to_have_text("Done")
    expect(page.locator("#walkthrough-rules")).to_have_attribute("href", "/rules")
    # The keyboard: arrows step, Tab stays inside, Esc closes.
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#walkthrough-title")).to_have_text(TITLES[4])
    page.keyboard.press("ArrowRight")
    expect(page.locator("#walkthrough-title")).to_have_text(TITLES[5])
    for _ in range(5):
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('#walkthrough')")
    page.keyboard.press("Escape")
    expect(tour).to_have_count(0)
    expect(page.locator(".walkthrough-target")).to_have_count(0)
    assert seen(page) is True
    # Focus goes back to the table (the dialog is gone once it has closed).
    assert page.evaluate("() => !!document.activeElement.closest('#main')")
    # It does not come back: the table is drawn again, with no walkthrough.
    page.reload()
    expect(page.locator("#hand")).to_be_visible()
    expect(tour).to_have_count(0)
    # The settings dialog offers it again, at once.
    page.click("#settings-button")
    page.click("dialog.settings #walkthrough-again")
    expect(tour).to_be_visible()
    expect(page.locator("#walkthrough-title")).to_have_text(TITLES[0])
    page.click("#walkthrough-close")
    expect(tour).to_have_count(0)
    assert seen(page) is True
    # So does the rules page, for the next table (here: Back to this one).
    page.locator("#rules-link").click()
    page.click("#walkthrough-again")
    expect(page.locator("#toast.show")).to_contain_text("next sit at a table")
    page.go_back()
    expect(tour).to_be_visible()
    # Its last step's link leads to the rules, and the walkthrough goes with the table.
    for _ in range(5):
        page.click("#walkthrough-next")
    page.click("#walkthrough-rules")
    expect(page.locator("#rulebook")).to_be_visible()
    expect(tour).to_have_count(0)
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_it_fits(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]], lang: str
) -> None:
    page = seated(browser, server_url, leave_after, {"en": "en-US", "ru": "ru-RU"}[lang])
    expect(page.locator("#walkthrough")).to_be_visible()
    for w, h in ((360, 740), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("w => innerWidth === w", arg=w)
        for step in range(6):
            expect(page.locator("#walkthrough-step")).to_contain_text(f"{step + 1}")
            assert page.evaluate(FITS), f"{lang} {w}x{h} step {step + 1}: wider than the window"
            with contextlib.suppress(PlaywrightTimeout):  # the assertions below say what
                page.wait_for_function(BOX_INSIDE, timeout=margin_ms(15))
            box = page.locator("#walkthrough").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= w, (w, step, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= h, (w, step, box)
            if (w, h) != (360, 740) and step in (0, 3):
                shot(page, f"walkthrough-{lang}-{w}x{h}-step{step + 1}", full=False)
            if (w, h) in a11y.SIZES and step in (0, 5):  # over the hand; over the scores
                a11y.assert_accessible(page, f"the tour step {step + 1} ({lang} {w}x{h})", None)
            if step < 5:
                page.click("#walkthrough-next")
        for _ in range(5):
            page.click("#walkthrough-back")
    assert page.js_errors == []
    page.context.close()


MINE = (
    "() => { const S = window.pitchTable; const g = S?.msg?.game;"
    " return !!g && g.turn === S.seat && g.legal.length > 0; }"
)


def test_it_waits_for_the_clock_and_gives_the_phone_its_buttons_back(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    # A table with a turn timer: reading the walkthrough during one's own timed move
    # cost a newcomer that move (the stand-in played it). It opens when it is not the
    # player's move and steps aside when the move comes, back at the same step after.
    # On a phone the steps scroll down to the scores: closing it scrolls back.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"bot_delay": 0.3, "turn_seconds": 60}
    body = {"rules": {"players": 2, "target": 11}, "seats": seats, "options": options}
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    leave_after.append((table, token))
    page = new_page(browser, settings=FRESH, **PHONE)
    page.add_init_script(OVER_THE_CLOCK)
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    tour = page.locator("#walkthrough")
    page.wait_for_function("() => !!window.pitchTable?.msg?.game")
    if page.evaluate(MINE):  # our move on the clock: no walkthrough until it is made
        expect(page.locator("#turn-clock")).to_be_visible()
        page.wait_for_timeout(500)  # a draw or two (the clock ticks): still none
        expect(tour).to_have_count(0)
        move(page)
    # Open while the bot thinks (its 0.3 s can pass unseen on a loaded machine: then our
    # move comes first, and reading() makes it and waits for the next chance).
    reading(page)
    page.wait_for_function(MINE)  # the bot has moved: our move, on the clock
    expect(tour).to_have_count(0)  # it stood aside, unfinished
    expect(page.locator(MOVE).first).to_be_focused()
    assert seen(page) is not True
    move(page)
    reading(page)
    # Steps read with the keyboard: a click could land on the table at the moment the
    # box steps aside for our move (then a card under it).
    for _ in TITLES[1:]:
        if page.evaluate(MINE):
            break  # our move again: it stood aside (the assertion below says so)
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.overTheClock") == 0
    reading(page)
    page.keyboard.press("Escape")
    expect(tour).to_have_count(0)
    expect(page.locator("#status")).to_be_in_viewport()
    expect(page.locator("#actions button").first).to_be_in_viewport()
    assert page.evaluate("() => window.overTheClock") == 0
    page.context.close()


SNAPSHOT = f"""() => {{
  const open = !!document.querySelector('#walkthrough[open]');
  const mine = ({MINE})();
  const S = window.pitchTable;
  return (open || mine) && {{ open, mine, seq: S.msg.seq, game: S.msg.game }};
}}"""


def move(page: Any) -> None:
    """Our move (a safe one), and its state back from the server: until then the page
    still shows the move as ours to make."""
    seq = page.evaluate("() => window.pitchTable.msg.seq")
    play_safe(page, page.evaluate("() => window.pitchTable.msg.game"))
    page.wait_for_function("s => window.pitchTable.msg.seq > s", arg=seq)


def reading(page: Any) -> None:
    """Until the walkthrough is open again, making our moves meanwhile (a card that wins
    a trick leads the next: our move again at once)."""
    for _ in range(12):
        now = page.wait_for_function(SNAPSHOT).json_value()  # one moment, read at once
        if now["open"]:
            return
        if now["mine"]:
            move(page)
    raise AssertionError("the walkthrough did not open again")


# Counts the moments the walkthrough is open while the player's own move is on the clock.
OVER_THE_CLOCK = """
window.overTheClock = 0;
window.tourOpen = 0;
new MutationObserver(() => {
  const open = !!document.querySelector("#walkthrough[open]");
  if (open && document.querySelector("#turn-clock.mine:not([hidden])")) window.overTheClock++;
  if (open) window.tourOpen++;
}).observe(document, { subtree: true, childList: true, attributes: true });
"""
# Our move again, after the state numbered arg.
AGAIN = f"(window.pitchTable.msg.seq > arg && ({MINE})())"
# The player's move: the first bid button in the auction, a playable card in play.
MOVE = "#actions .bid-button, #hand .card.legal"


@pytest.fixture(scope="module")
def slow_quick_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose quick-play bots take a second a move, as a real one's do (the
    shared test server's answer at once), so the walkthrough is seen open between the
    player's moves."""
    with serving(tmp_path_factory.mktemp("slowquick"), PITCH_QUICK_BOT_DELAY="1") as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_quick_play_newcomer_is_never_timed_out_by_it(
    browser: Any, slow_quick_url: str, lang: str
) -> None:
    # Issue 44: at a quick-play table (turn timer on) the walkthrough opened over the
    # newcomer's own timed bid, and the stand-in bid for them while they read it.
    url = slow_quick_url
    # Rules of its own for each language: a table of the other's would seat Ada late.
    body = {"rules": {"players": 4, "target": {"en": 11, "ru": 15}[lang]}, "level": "beginner"}
    table = post_json(url + "/api/quickplay", body)["table"]
    ada = post_json(f"{url}/api/tables/{table}/quickseat", {"name": "Ada"})
    page = new_page(browser, locale={"en": "en-US", "ru": "ru-RU"}[lang], settings=FRESH)
    page.add_init_script(OVER_THE_CLOCK)
    seat_in(page, table, ada["seat"], ada["token"])
    page.goto(f"{url}/t/{table}")
    tour = page.locator("#walkthrough")
    page.wait_for_function("() => !!window.pitchTable?.msg?.game")
    for turn in range(3):
        page.wait_for_function(MINE, timeout=margin_ms(30))
        expect(page.locator("#turn-clock")).to_be_visible()
        expect(tour).to_have_count(0)  # never over the player's timed move
        if page.evaluate("() => window.tourOpen"):  # it stood aside: focus to the move
            expect(page.locator(MOVE).first).to_be_focused()
        if turn == 1:
            page.set_viewport_size({"width": 390, "height": 844})
            shot(page, f"walkthrough-aside-{lang}-390x844", full=False)
            page.set_viewport_size({"width": 1280, "height": 800})
            shot(page, f"walkthrough-aside-{lang}-1280x800", full=False)
        seq = page.evaluate("() => window.pitchTable.msg.seq")
        play_safe(page, page.evaluate("() => window.pitchTable.msg.game"))
        # The others' moves: time to read (unless the move won a trick: ours to lead).
        page.wait_for_function(
            f"arg => !!document.querySelector('#walkthrough[open]') || {AGAIN}", arg=seq
        )
        if turn == 0 and tour.count():
            for w, h in ((390, 844), (1280, 800)):
                page.set_viewport_size({"width": w, "height": h})
                shot(page, f"walkthrough-quick-{lang}-{w}x{h}", full=False)
    assert page.evaluate("() => window.overTheClock") == 0
    assert page.evaluate("() => window.tourOpen") > 0  # it did open, between the moves
    assert seen(page) is not True  # stood aside, not finished
    assert page.js_errors == []
    page.context.close()


def test_escape_in_the_auction_focuses_the_bid(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    # Issue 44: Esc on the walkthrough during the player's bid put focus on a card.
    page = seated(browser, server_url, leave_after)
    tour = page.locator("#walkthrough")
    expect(tour).to_be_visible()
    page.wait_for_function(MINE)  # no timer here: it stays open over the bid
    assert page.evaluate("() => window.pitchTable.msg.game.phase") == "bid"
    page.keyboard.press("Escape")
    expect(tour).to_have_count(0)
    expect(page.locator("#actions .bid-button").first).to_be_focused()
    play_safe(page, page.evaluate("() => window.pitchTable.msg.game"))
    page.wait_for_function("() => window.pitchTable.msg.game.phase === 'play'")
    # In play, the walkthrough again (settings): Esc on our move goes to a playable card.
    page.wait_for_function(MINE, timeout=margin_ms(30))
    page.click("#settings-button")
    page.click("dialog.settings #walkthrough-again")
    expect(tour).to_be_visible()
    page.keyboard.press("Escape")
    expect(tour).to_have_count(0)
    expect(page.locator("#hand .card.legal").first).to_be_focused()
    assert page.js_errors == []
    page.context.close()
