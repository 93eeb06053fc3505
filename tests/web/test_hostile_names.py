"""Hostile display names at a live table (issue 16): a name is shown as the text it is,
in the seat picker and at the table, and no script in it ever runs."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import new_page, post_json, shot

NAMES = ["<img src=x onerror=__pwned=1>", '"><svg onload=__pwned=2>', "javascript:__pwned=3"]


def _no_script_ran(page: Any) -> None:
    assert page.evaluate("() => window.__pwned") is None
    expect(page.locator("img[src='x'], svg[onload], [onerror]")).to_have_count(0)


def test_hostile_names_are_text_everywhere(browser: Any, server_url: str) -> None:
    body = {
        "rules": {"players": 4},
        "seats": [{"kind": "human"}] * 4,
        "options": {"bot_delay": 0},
    }
    table = post_json(server_url + "/api/tables", body)["id"]
    for seat, name in enumerate(NAMES, start=1):
        post_json(f"{server_url}/api/tables/{table}/seats/{seat}", {"name": name})
    dialogs: list[str] = []
    # A stranger opens the invite link: the seat picker lists the names taken.
    page = new_page(browser)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{server_url}/t/{table}")
    for name in NAMES:
        expect(page.get_by_text(name, exact=False).first).to_be_visible()
    _no_script_ran(page)
    # Ada takes the last seat; the game starts and the table shows the names.
    page.fill("#join-name", "Ada")
    page.click("#open-seats [data-seat='0']")
    expect(page.locator("#hand")).to_be_visible()
    for name in NAMES:
        expect(page.get_by_text(name, exact=False).first).to_be_attached()
    _no_script_ran(page)
    shot(page, "hostile-names-table")
    assert dialogs == []
    assert page.js_errors == []
    page.context.close()
