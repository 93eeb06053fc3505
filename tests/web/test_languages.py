"""Every language renders the lobby, the replay viewer and the settings without a
missing string, and the language follows the browser until the user picks one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DATA, LANGS, new_page, shot

BROWSER_LOCALE = {
    "en": "en-GB",
    "nb": "nb-NO",
    "ru": "ru-RU",
    "sv": "sv-SE",
    "sq": "sq-AL",
    "gl": "gl-ES",
}


def _missing(page: Any) -> list[str]:
    return page.evaluate("() => [...window.pitchI18n.missing]")


@pytest.mark.parametrize("lang", LANGS)
def test_language_renders_every_string(browser: Any, static_url: str, lang: str) -> None:
    page = new_page(browser, locale=BROWSER_LOCALE[lang])
    page.goto(static_url + "/")
    page.wait_for_selector("body.ready")
    assert page.get_attribute("html", "lang") == lang
    assert page.input_value("#lang") == lang
    page.wait_for_selector("#create-table")
    shot(page, f"lobby-{lang}")
    page.goto(static_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
    page.click("[data-action=next-hand]")
    page.click("[data-action=prev]")
    page.wait_for_selector(".hand-summary")
    shot(page, f"replay-{lang}")
    page.click("#settings-button")
    page.wait_for_selector("dialog.settings")
    assert _missing(page) == []
    if lang != "en":
        # Nothing English is left on the page (names and numbers aside).
        text = page.inner_text("main")
        for word in ("Replay", "Score sheet", "Trump", "Hand 1 is over", "won the game"):
            assert word not in text, (lang, word)
    assert page.js_errors == []
    page.context.close()


def test_language_switch_is_remembered(browser: Any, static_url: str) -> None:
    page = new_page(browser, locale="en-US")
    page.goto(static_url + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#lang", "gl")
    page.wait_for_function("() => document.documentElement.lang === 'gl'")
    page.reload()
    page.wait_for_selector("#create-table")
    assert page.get_attribute("html", "lang") == "gl"
    assert page.text_content("#create-table") != "Create table"
    page.context.close()
