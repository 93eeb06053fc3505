"""Table chat between two browsers (issue 17): quick phrases in each one's language,
free text shown as text, mute, and the lines still there after a reload."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import PHONE, new_page, shot


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req) as r:
        out: dict[str, Any] = json.load(r)
    return out


def test_chat_between_two_browsers(browser: Any, server_url: str) -> None:
    body = {"rules": {"players": 2}, "options": {"turn_seconds": 600}}
    table = _post(server_url + "/api/tables", body)["id"]
    people = [("Ada", {}), ("Bo", {"locale": "ru-RU", **PHONE})]
    tokens = [
        _post(f"{server_url}/api/tables/{table}/seats/{s}", {"name": n})["token"]
        for s, (n, _) in enumerate(people)
    ]
    pages = []
    for seat, ((_, ctx), tok) in enumerate(zip(people, tokens, strict=True)):
        page = new_page(browser, **ctx)
        page.context.add_init_script(
            f"localStorage.setItem('pitch.token.{table}', '{tok}');"
            f"localStorage.setItem('pitch.seat.{table}', '{seat}')"
        )
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
    expect(ada.locator("#chat-log .muted-note")).to_be_visible()
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
