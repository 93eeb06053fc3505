"""Every language renders the lobby, the replay viewer and the settings without a
missing string, and the language follows the browser until the user picks one."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.a11y import assert_accessible
from tests.web.conftest import DATA, LANGS, browser_locale, new_page, shot


def _missing(page: Any) -> list[str]:
    return page.evaluate("() => [...window.pitchI18n.missing]")


@pytest.mark.parametrize("lang", LANGS)
def test_language_renders_every_string(browser: Any, server_url: str, lang: str) -> None:
    # The server, not static files alone: the replay viewer has the server check a record.
    page = new_page(browser, locale=browser_locale(lang))
    page.goto(server_url + "/")
    page.wait_for_selector("body.ready")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#lang")).to_have_value(lang)
    page.wait_for_selector("#create-table")
    shot(page, f"lobby-{lang}")
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
    page.click("[data-action=next-hand]")
    page.click("[data-action=prev]")
    page.wait_for_selector(".hand-summary")
    shot(page, f"replay-{lang}")
    page.click("#settings-button")
    expect(page.locator("dialog.settings")).to_be_visible()
    expect(page.locator("dialog.settings .keys-help")).to_contain_text("1–4")
    shot(page, f"settings-{lang}", full=False)
    if lang in ("en", "ru"):
        assert_accessible(page, f"the settings dialog ({lang})")
    assert _missing(page) == []
    if lang != "en":
        # Nothing English is left on the page (names and numbers aside).
        main = page.locator("main")
        for word in ("Replay", "Score sheet", "Trump", "Hand 1 is over", "won the game"):
            expect(main).not_to_contain_text(word)
    assert page.js_errors == []
    page.context.close()


def test_language_switch_is_remembered(browser: Any, static_url: str) -> None:
    page = new_page(browser, locale="en-US")
    page.goto(static_url + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#lang", "gl")
    page.wait_for_function("() => document.documentElement.lang === 'gl'")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "gl")
    expect(page.locator("#create-table")).not_to_have_text("Create table")
    page.context.close()
