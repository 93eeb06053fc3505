"""A browser with too many tables open (``PITCH_TABLES_OPEN_PER_CLIENT``, docs/server.md):
the next table says so in the reader's language, keeps trying, and connects by itself
once one of the others is closed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.conftest import PHONE, post_json, seat_page, serving, shots

TOO_MANY = {
    "en": "You have too many tables open. Close one; this one keeps trying to connect.",
    "ru": "У вас открыто слишком много столов. "
    "Закройте один; этот продолжает пытаться подключиться.",
}


def _seated(url: str) -> tuple[str, str]:
    body = {
        "rules": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    }
    table = post_json(url + "/api/tables", body)["id"]
    return table, post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]


def test_a_table_past_the_open_limit_waits_for_one_to_close(browser: Any, tmp_path: Path) -> None:
    desktop = {"viewport": {"width": 1280, "height": 800}}
    with serving(tmp_path, PITCH_TABLES_OPEN_PER_CLIENT="1") as url:
        (first_id, first_token), (second_id, second_token) = _seated(url), _seated(url)
        first = seat_page(browser, url, first_id, first_token, **desktop)
        expect(first.locator("#board")).to_be_visible()
        en = seat_page(browser, url, second_id, second_token, **desktop)
        ru = seat_page(browser, url, second_id, second_token, locale="ru-RU", **PHONE)
        for lang, page in (("en", en), ("ru", ru)):
            expect(page.locator(".loading.blocked")).to_have_text(TOO_MANY[lang])
            expect(page.locator("main a.button[href='/']")).to_be_visible()
        shots(en, "too-many-tables-en")
        shots(ru, "too-many-tables-ru")
        # Still refused on its next tries while the first is open.
        en.wait_for_timeout(6_000)
        expect(en.locator(".loading.blocked")).to_be_visible()
        first.context.close()
        for page in (en, ru):
            expect(page.locator("#board")).to_be_visible(timeout=margin_ms(30))
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
            page.context.close()
