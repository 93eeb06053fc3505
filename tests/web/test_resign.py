"""Resigning from the table itself (issue 44 item 5): the table's menu ("⋯" in its
status row) holds Resign, works by keyboard (a WAI-ARIA menu button: Enter or ↓ opens
it, Esc closes it back onto the button) and by touch, on a phone and a laptop, in
English and Russian. At a table of bots the resignation ends the game there, and the
game is kept: the page shows it over ("You resigned"), with its record, its replay and
Rematch, and My tables lists it as over (it was deleted: "table not found"). The
7-seat Russian table still fits a 360 px phone with the menu, open or closed."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.engine import verify_record
from tests.web.a11y import assert_accessible
from tests.web.conftest import new_page, post_json, seat_in, shot
from tests.web.test_layout import FAULTS

SIZES = {  # the five sizes of tests/web/test_layout.py
    "phone-360": {"width": 360, "height": 740},
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 768, "height": 1024},
    "laptop": {"width": 1280, "height": 800},
    "desktop": {"width": 1920, "height": 1080},
}
LANGS = {"en": "en-US", "ru": "ru-RU"}
RESIGNED = {
    "en": "You resigned. The game ended with no winner.",
    "ru": "Вы сдались. Партия окончена без победителя.",
}
QUESTION = {
    "en": "Resign this game? It ends here with no winner; its record and replay are kept.",
    "ru": "Сдаться? Партия закончится здесь без победителя; её запись и повтор сохранятся.",
}
MENU = {"en": "Game menu", "ru": "Меню игры"}
# The open menu's box, read at once: the bots' moves redraw the page (a locator's
# bounding_box() may measure a menu just replaced, and answer None).
BOX = """() => { const r = document.getElementById("table-menu").getBoundingClientRect();
  return r.width ? {x: r.left, y: r.top, width: r.width, height: r.height} : null; }"""


def _table(url: str, players: int, name: str) -> tuple[str, str]:
    """A game under way: seat 0 ours, every other seat a bot. Its id and our token."""
    body = {
        "rules": {"players": players, "target": 21},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 1),
        "options": {"bot_delay": 0.3},
    }
    table = post_json(url + "/api/tables", body)["id"]
    return table, post_json(f"{url}/api/tables/{table}/seats/0", {"name": name})["token"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_resign_from_the_table_menu(browser: Any, server_url: str, lang: str, size: str) -> None:
    table, token = _table(server_url, 3, "Dag")
    page = new_page(
        browser, locale=LANGS[lang], viewport=SIZES[size], is_mobile=size.startswith("phone")
    )
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    expect(page.locator("#hand .card")).to_have_count(6)
    button = page.locator("#table-menu-button")
    menu = page.locator("#table-menu")
    item = menu.get_by_role("menuitem")
    expect(button).to_have_attribute("aria-label", MENU[lang])
    expect(button).to_have_attribute("aria-haspopup", "menu")
    expect(menu).to_be_hidden()

    # The keyboard: Enter opens on the item, Esc closes back onto the button, ↓ opens.
    button.focus()
    page.keyboard.press("Enter")
    expect(menu).to_be_visible()
    expect(item).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("ArrowDown")
    expect(item).to_be_focused()
    # Open across a redraw (every state message draws the page again; here the same
    # draw, from the language switch, so as not to wait for a bot), and wholly on screen.
    page.evaluate("""() => { document.getElementById("table-menu").dataset.old = "1";
      document.getElementById("lang").dispatchEvent(new Event("change")); }""")
    expect(page.locator("#table-menu:not([data-old])")).to_have_count(1)
    expect(menu).to_be_visible()
    expect(item).to_be_focused()
    box = page.evaluate(BOX)
    w, h = SIZES[size]["width"], SIZES[size]["height"]
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h
    shot(page, f"table-menu-{lang}-{size}", full=False)
    # A click elsewhere closes it; a tap (or click) on the button opens it again.
    page.locator("#status").click()
    expect(menu).to_be_hidden()
    button.click()
    expect(item).to_be_focused()
    expect(item).to_have_text("Resign" if lang == "en" else "Сдаться")

    # Resign, confirmed: the game is over, kept, and says so.
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    item.press("Enter")
    panel = page.locator("#game-over")
    expect(panel.locator(".winner-line")).to_have_text(RESIGNED[lang])
    assert asked == [QUESTION[lang]]
    expect(page.locator("#status")).to_have_text(RESIGNED[lang])
    for control in ("#rematch", "#watch-replay", "#download-record"):
        expect(panel.locator(control)).to_be_visible()
    expect(button).to_have_count(0)  # nothing to resign any more
    expect(page.locator("#hand .card.legal")).to_have_count(0)
    shot(page, f"resigned-{lang}-{size}", full=False)
    assert_accessible(page, f"resigned game over ({lang}, {size})", sizes=None)
    with urllib.request.urlopen(f"{server_url}/api/tables/{table}/record") as r:
        record = json.load(r)
    assert record["resigned"] == 0 and record["winner"] is None
    assert verify_record(record) is None
    # The replay says who resigned (none of its hands may be finished: nothing to step).
    panel.locator("#watch-replay").click()
    expect(page.locator("main")).to_contain_text(
        RESIGNED["en"].replace("You", "Dag", 1) if lang == "en" else "Dag сдаётся"
    )
    # My tables lists it, over.
    page.goto(server_url + "/")
    row = page.locator(f"#my-tables li[data-table='{table}']")
    expect(row).to_have_attribute("data-status", "over")
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


def test_the_seven_seat_russian_table_fits_a_phone_with_the_menu(
    browser: Any, server_url: str
) -> None:
    table, token = _table(server_url, 7, "Константин")
    page = new_page(browser, locale="ru-RU", viewport={"width": 360, "height": 740})
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    expect(page.locator("#hand .card")).to_have_count(6)
    expect(page.locator("#table-menu-button")).to_be_visible()
    assert page.evaluate(FAULTS) == []
    page.locator("#table-menu-button").click()
    menu = page.locator("#table-menu")
    expect(menu).to_be_visible()
    assert page.evaluate(FAULTS) == []
    box = page.evaluate(BOX)
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(page, "table-menu-ru-7-seats-360x740", full=False)
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_says_who_resigned(
    browser: Any, server_url: str, tmp_path: Any, lang: str
) -> None:
    """A record of a resigned game (``resigned``, docs/record-format.md) ends, in the
    viewer, on who resigned; one resigned in its first hand has no hand to replay."""
    import random

    from pitch.bots import make_bot, play_game
    from pitch.engine import Rules, game_record

    bots = [make_bot("heuristic", rng=random.Random(i)) for i in range(3)]
    state = play_game(Rules(players=3, target=21), bots, random.Random(3), max_hands=2).state
    rec = game_record(state, players=["Dag", "Bot 2 (club)", "Bot 3 (club)"], resigned=0)
    assert rec["winner"] is None and len(rec["hands"]) == 2
    said = {
        "en": "Dag resigned. The game ended with no winner.",
        "ru": "Партия окончена без победителя: Dag сдаётся.",
    }
    page = new_page(browser, locale=LANGS[lang], viewport=SIZES["phone"])
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(rec))
    page.set_input_files("#record-file", str(path))
    expect(page.locator(".replay-controls")).to_be_visible()
    page.click("[data-action=last]")
    expect(page.locator(".side-panel .winner-line")).to_have_text(said[lang])
    expect(page.locator(".replay-where .event")).to_have_text(said[lang])
    shot(page, f"replay-resigned-{lang}-phone", full=False)
    path = tmp_path / "resigned-at-once.json"
    path.write_text(json.dumps({**rec, "hands": []}))
    page.set_input_files("#record-file", str(path))
    nothing = {
        "en": "No hand of this game was finished: there is nothing to replay.",
        "ru": "Ни одна раздача этой партии не была доиграна: смотреть нечего.",
    }
    expect(page.locator("#nothing-to-replay")).to_have_text(f"{said[lang]} {nothing[lang]}")
    expect(page.locator(".replay-controls")).to_have_count(0)
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()
