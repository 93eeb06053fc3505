"""The first-game walkthrough (walkthrough.js): it opens the first time a player sits at
a table in play, walks through its six steps, each pointing at the part of the table it
explains, keeps the keyboard inside it and closes with Esc, stays closed after a reload,
and comes back from "Show the walkthrough again" (settings dialog, rules page). It fits
a 360 px phone and a desktop in English and Russian; screenshots
``walkthrough-<lang>-<w>x<h>.png``."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.conftest import PHONE, new_page, play_safe, post_json, seat_in, shot

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
            if step < 5:
                page.click("#walkthrough-next")
        for _ in range(5):
            page.click("#walkthrough-back")
    assert page.js_errors == []
    page.context.close()


MINE = (
    "() => { const S = window.pitchTable; const g = S?.msg?.game;"
    " return !!g && g.turn === S.seat; }"
)


def test_it_waits_for_the_clock_and_gives_the_phone_its_buttons_back(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    # A table with a turn timer: reading the walkthrough during one's own timed move
    # cost a newcomer that move (the stand-in played it). It opens when it is not the
    # player's move; when the move comes meanwhile, the box shows the time left. On a
    # phone the steps scroll down to the scores: closing it scrolls back.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"bot_delay": 0.3, "turn_seconds": 60}
    body = {"rules": {"players": 2, "target": 11}, "seats": seats, "options": options}
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    leave_after.append((table, token))
    page = new_page(browser, settings=FRESH, **PHONE)
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    tour = page.locator("#walkthrough")
    page.wait_for_function("() => !!window.pitchTable?.msg?.game")
    if page.evaluate(MINE):  # our move on the clock: no walkthrough until it is made
        expect(page.locator("#turn-clock")).to_be_visible()
        page.wait_for_timeout(500)  # a draw or two (the clock ticks): still none
        expect(tour).to_have_count(0)
        game = page.evaluate("() => window.pitchTable.msg.game")
        play_safe(page, game)
    expect(tour).to_be_visible()
    page.wait_for_function(MINE)  # the bot has moved: our move, on the clock
    expect(page.locator("#walkthrough-turn")).to_have_text(
        re.compile(r"^Your move: [01]:\d\d left\. Close the walkthrough to play\.$")
    )
    shot(page, "walkthrough-clock-en-390x844", full=False)
    for _ in TITLES[1:]:
        page.click("#walkthrough-next")
    expect(page.locator("#scores.walkthrough-target")).to_have_count(1)
    page.click("#walkthrough-next")  # Done
    expect(tour).to_have_count(0)
    expect(page.locator("#status")).to_be_in_viewport()
    expect(page.locator("#actions button").first).to_be_in_viewport()
    page.context.close()
