"""Table chat between two browsers (issue 17): quick phrases in each one's language,
free text shown as text, mute, and the lines still there after a reload."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.a11y import assert_accessible
from tests.web.conftest import PHONE, new_page, post_json, seat_in, shot
from tests.web.test_play import MY_TURN

CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_chat_between_two_browsers(browser: Any, server_url: str) -> None:
    body = {"rules": {"players": 2}, "options": {"turn_seconds": 600}}
    table = post_json(server_url + "/api/tables", body)["id"]
    people = [("Ada", {}), ("Bo", {"locale": "ru-RU", **PHONE})]
    tokens = [
        post_json(f"{server_url}/api/tables/{table}/seats/{s}", {"name": n})["token"]
        for s, (n, _) in enumerate(people)
    ]
    pages = []
    for seat, ((_, ctx), tok) in enumerate(zip(people, tokens, strict=True)):
        page = new_page(browser, **ctx)
        seat_in(page, table, seat, tok)
        page.goto(f"{server_url}/t/{table}")
        expect(page.locator("#chat #chat-phrases button").first).to_be_visible()
        pages.append(page)
    ada, bo = pages
    ada.get_by_role("button", name="Good luck!").click()
    expect(bo.locator("#chat-log li").last).to_have_text("Ada Удачи!")
    hostile = "<img src=x onerror=__pwned=1> привет"
    bo.fill("#chat-text", hostile)
    bo.press("#chat-text", "Enter")
    expect(ada.locator("#chat-log li").last).to_have_text(f"Bo {hostile}")
    assert ada.evaluate("() => window.__pwned") is None
    expect(ada.locator("#chat img")).to_have_count(0)
    shot(bo, "chat-ru-phone", full=False)
    shot(ada, "chat-en-desktop")
    # A long chat scrolls (its height cut here stands for many lines): still reachable
    # by keyboard, and the table with its chat has no accessibility violation.
    for page, lang in ((bo, "ru"), (ada, "en")):
        page.locator("#chat-log").evaluate("l => (l.style.maxHeight = '1.5rem')")
        page.wait_for_function(
            "() => { const l = document.getElementById('chat-log');"
            " return l.scrollHeight > l.clientHeight; }"
        )
        assert_accessible(page, f"the table with a long chat ({lang})")
        page.locator("#chat-log").evaluate("l => (l.style.maxHeight = '')")
    # Mute: the other's lines are hidden (and counted), one's own stay.
    ada.click("#chat-mute")
    expect(ada.locator("#chat-log .muted-note")).to_have_text("Lines muted: 1")
    expect(ada.locator("#chat-log li", has_text="привет")).to_have_count(0)
    expect(ada.locator("#chat-log li", has_text="Good luck!")).to_have_count(1)
    ada.click("#chat-mute")
    # Stored with the table: a reload shows the lines again.
    bo.reload()
    expect(bo.locator("#chat-log li")).to_have_count(2)
    for page in pages:
        assert page.evaluate("() => [...window.pitchI18n.missing]") == []
        assert page.js_errors == []
        page.context.close()


def test_language_switch_at_the_table_says_the_chat_and_the_hint_again(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    # Issue 44: after en -> ru at a table, the chat panel and the hint on screen stayed
    # in English until a reload.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    body = {"rules": {"players": 2}, "seats": seats, "options": {"bot_delay": 0.3}}
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    leave_after.append((table, token))
    page = new_page(browser)
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    page.get_by_role("button", name="Hello!").click()
    expect(page.locator("#chat-log li").last).to_have_text("Ada Hello!")
    page.fill("#chat-text", "half typed")
    page.wait_for_function(MY_TURN)
    page.click("#hint-button")
    page.wait_for_function("() => window.pitchTable.hint?.source === 'server'")
    english = page.locator("#hint").inner_text()
    assert english and not CYRILLIC.search(english)
    page.select_option("#lang", "ru")
    expect(page.locator("#chat h2")).to_have_text("Чат")
    expect(page.locator("#chat-log li").last).to_have_text("Ada Привет!")
    expect(page.locator("#chat-mute")).to_have_text("Выключить чат")
    expect(page.locator("#chat-send")).to_have_text("Отправить")
    expect(page.locator("#chat-text")).to_have_value("half typed")
    expect(page.get_by_role("button", name="Привет!")).to_be_visible()
    expect(page.locator("#hint")).to_have_text(CYRILLIC)
    assert page.evaluate("() => window.pitchTable.hint.source") == "server"
    assert not re.search(r"[A-Za-z]{4,}", page.locator("#hint").inner_text())
    for size, (w, h) in {"phone": (390, 844), "desktop": (1280, 800)}.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator("#chat").scroll_into_view_if_needed()
        shot(page, f"table-lang-switch-chat-hint-ru-{size}", full=False)
        page.locator("#hint").scroll_into_view_if_needed()
        shot(page, f"table-lang-switch-hint-ru-{size}", full=False)
    assert page.js_errors == []
    page.context.close()
