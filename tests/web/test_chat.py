"""Table chat between two browsers (issue 17): quick phrases in each one's language,
free text shown as text, mute, and the lines still there after a reload."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import PHONE, new_page, post_json, seat_in, shot


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
