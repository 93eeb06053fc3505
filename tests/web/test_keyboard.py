"""A keyboard and screen-reader player at a real table: the skip link only moves focus,
focus is never dropped to the page body when its control goes away (a bid made, a card
played, the last-trick dialog closed), and moves and turns are announced."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import new_page
from tests.web.test_play import MY_TURN, _create, _state

FOCUS_IN_PAGE = "() => document.activeElement && document.activeElement !== document.body"


def _key_move(page: Any, game: dict[str, Any]) -> None:
    """The seat's move by keyboard: focus its button or card, press Enter."""
    legal = game["legal"]
    action = "pass" if "pass" in legal else legal[0]
    where = "#actions [data-action" if game["phase"] == "bid" else "#hand [data-card"
    # A finished trick stays on screen a moment and the table is drawn again just after
    # (20 ms with animations off): a key pressed on a card focused before that redraw
    # went to the page, and nothing was played (a fresh-clone run caught it).
    page.wait_for_function(
        "() => { const t = window.pitchTable.shownTrick; return !t || Date.now() > t.until + 100; }"
    )
    page.locator(f'{where}="{action}"]').press("Enter")


def test_a_keyboard_player_keeps_focus_and_hears_the_table(browser: Any, server_url: str) -> None:
    page = new_page(browser)
    table = _create(page, server_url, players=2, seats={1: "bot"}, pace="0")
    page.wait_for_function(MY_TURN)

    # The skip link moves focus to the page; it does not draw the table again.
    page.evaluate("() => { window.__kept = 1; }")
    page.locator(".skip-link").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#main")).to_be_focused()
    assert page.evaluate("() => window.__kept") == 1
    expect(page).to_have_url(re.compile(rf"/t/{table}$"))

    # Every move by keyboard; after each, focus is on a control of the table.
    heard_turn = heard_bot = played_last = closed_dialog = False
    for _ in range(40):
        page.wait_for_function(MY_TURN)
        st = _state(page)
        g = st["game"]
        if g["winner"] is not None:
            break
        if g.get("last_trick") and not closed_dialog:
            # The last trick's dialog, opened and closed by keyboard, gives focus back.
            page.locator("#last-trick-button").focus()
            page.keyboard.press("Enter")
            expect(page.locator("dialog.last-trick")).to_be_visible()
            page.keyboard.press("Escape")
            expect(page.locator("#last-trick-button")).to_be_focused()
            closed_dialog = True
        played_last = g["phase"] == "play" and len(g["hand"]) == 1
        _key_move(page, g)
        page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=st["seq"])
        page.wait_for_function(FOCUS_IN_PAGE)
        expect(page.locator("#main :focus")).to_have_count(1)
        said = page.locator("#announcer").text_content() or ""
        heard_turn = heard_turn or "Your turn" in said
        heard_bot = heard_bot or re.search(r"Bot 2 (bids|passes|plays)", said) is not None
        if played_last and heard_turn and heard_bot and closed_dialog:
            break
    assert heard_turn and heard_bot and played_last and closed_dialog
    assert page.js_errors == []
    page.context.close()


def test_a_page_loaded_on_our_move_puts_the_keyboard_on_it(browser: Any, server_url: str) -> None:
    # After a reload on our move focus sat on the page itself: a keyboard player had to
    # Tab through the top bar to reach the hand or the bids.
    page = new_page(browser)
    _create(page, server_url, players=2, seats={1: "bot"}, pace="0")
    page.wait_for_function(MY_TURN)
    page.reload()
    page.wait_for_function(MY_TURN)
    page.wait_for_function(FOCUS_IN_PAGE)
    focused = page.locator("#actions .bid-button.primary:focus, #hand .card.legal:focus")
    expect(focused).to_have_count(1)
    assert page.js_errors == []
    page.context.close()
