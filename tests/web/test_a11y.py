"""The accessibility check itself (a11y.py): it finds what axe-core finds and says it in
words, and a page without a fault passes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.a11y import assert_accessible
from tests.web.conftest import DATA, PHONE, new_page

CLEAN = """<!doctype html><html lang="en"><head><title>Clean</title></head>
<body><main><h1>Clean</h1><button type="button">Deal</button></main></body></html>"""

# An image with no text alternative and a button with no name: both "critical" in axe.
FAULTY = """<!doctype html><html lang="en"><head><title>Faulty</title></head>
<body><main><h1>Faulty</h1><img id="card" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button type="button" class="deal"></button></main></body></html>"""


def test_a_clean_page_passes(page: Any) -> None:
    page.set_content(CLEAN)
    assert_accessible(page, "a clean page")


def test_each_fault_is_named_with_its_element_and_help(page: Any) -> None:
    page.set_content(FAULTY)
    with pytest.raises(AssertionError) as failed:
        assert_accessible(page, "a faulty page")
    report = str(failed.value)
    assert "accessibility violations on a faulty page" in report
    for size in ("390x844", "1280x800"):
        assert f"at {size}:" in report
    assert "image-alt (critical)" in report and "#card" in report
    assert "button-name (critical)" in report and 'class="deal"' in report
    assert "https://dequeuniversity.com/rules/axe/4.12/image-alt" in report
    assert page.viewport_size == {"width": 1280, "height": 860}  # put back


def test_a_fault_added_by_script_is_found(page: Any) -> None:
    page.set_content(CLEAN)
    page.evaluate("() => document.querySelector('button').textContent = ''")
    with pytest.raises(AssertionError, match="button-name"):
        assert_accessible(page, "a page that lost a name", sizes=None)


def test_a_score_sheet_that_scrolls_is_reached_by_keyboard(browser: Any, server_url: str) -> None:
    # A long game's score sheet (or seven sides on a phone) scrolls: axe found it out of
    # the keyboard's reach at a 7-seat table. Its height cut here stands for many hands.
    page = new_page(browser, locale="ru-RU", **PHONE)
    page.goto(server_url + "/#replay")
    page.set_input_files("#record-file", str(DATA / "partners.jsonl"))
    page.click("[data-action=last]")
    wrap = page.locator(".score-sheet-wrap")
    expect(wrap).to_be_visible()
    wrap.evaluate("w => (w.style.maxHeight = '4rem')")
    page.wait_for_function(
        "() => { const w = document.querySelector('.score-sheet-wrap');"
        " return w.scrollHeight > w.clientHeight; }"
    )
    assert_accessible(page, "a score sheet that scrolls (ru)", sizes=None)
    expect(wrap).to_have_accessible_name("Таблица очков")
    assert page.js_errors == []
    page.context.close()
