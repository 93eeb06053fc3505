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


# What shows the chosen language in the bar, and whether it shows whole: the select
# (what it needs: the same select holding that option alone, unconstrained: the name's
# width, its arrow's and padding) or, on a phone, the code lying under it.
_LANGUAGE_SHOWN = """() => {
  const sel = document.getElementById("lang");
  const code = document.querySelector(".topbar .lang-code");
  const bar = document.querySelector(".topbar");
  const out = {viewport: document.documentElement.clientWidth,
               bar: bar.scrollWidth - bar.clientWidth};
  if (code && getComputedStyle(code).display !== "none") {
    const r = code.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {...out, shows: "code", text: code.textContent, cut: code.scrollWidth > code.clientWidth,
            right: r.right, tapOpens: hit === sel};
  }
  const free = sel.cloneNode(true);
  free.removeAttribute("id");
  for (const o of [...free.options]) if (o.value !== sel.value) o.remove();
  free.style.cssText =
    "position:absolute; left:0; top:0; max-width:none; width:auto; visibility:hidden";
  sel.parentElement.append(free);
  const need = free.getBoundingClientRect().width;
  free.remove();
  const r = sel.getBoundingClientRect();
  return {...out, shows: "name", text: sel.selectedOptions[0].textContent,
          cut: r.width < need - 0.5, right: r.right, tapOpens: true};
}"""


@pytest.mark.parametrize(
    "size",
    [(360, 740), (390, 844), (480, 800), (640, 800), (1280, 800)],
    ids=["360", "390", "480", "640", "1280"],
)
def test_the_bar_shows_the_language_whole(
    browser: Any, static_url: str, size: tuple[int, int]
) -> None:
    """No language is shown cut short ("Русски", "Norsk b"): a phone's bar shows its
    code (the select, unseen, over it: a tap opens the list of whole names), a wider
    one its name, whole."""
    width, height = size
    page = new_page(browser, locale="en-US", viewport={"width": width, "height": height})
    page.goto(static_url + "/")
    page.wait_for_selector("#create-table")
    names = dict(
        page.evaluate(
            "() => [...document.getElementById('lang').options].map(o => [o.value, o.textContent])"
        )
    )
    for lang in LANGS:
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        expect(page.locator("#lang")).to_have_value(lang)
        m = page.evaluate(_LANGUAGE_SHOWN)
        assert not m["cut"] and m["tapOpens"], (lang, m)
        assert m["text"] == (lang.upper() if m["shows"] == "code" else names[lang]), m
        assert m["shows"] == ("code" if width <= 420 else "name"), m
        assert m["right"] <= m["viewport"] and m["bar"] <= 0, (lang, m)
        if lang in ("ru", "en", "nb"):
            shot(page, f"topbar-lang-{lang}-{width}", full=False)
    assert page.js_errors == []
    page.context.close()
