"""The analysis in the replay viewer (issue 47), against the real server: "Analyse this
game" in the viewer and on the game-over panel, the win-chance chart (a click or a key
moves the replay), each decision's mark and the players' accuracy, the keys to the
next and the previous mistake; at a phone's size and a laptop's, in English and in
Russian, checked by axe. Every assertion waits (``expect``) for the state it reads."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.a11y import assert_accessible
from tests.web.conftest import DATA, new_page, play_to_the_end, seat_in, shot

LANGS = {"en": "en-US", "ru": "ru-RU"}
PHONE = (360, 740)
LAPTOP = (1280, 800)
MARK = re.compile(r"^(\?!|\?\?|\?) ")


def _viewport(size: tuple[int, int]) -> dict[str, Any]:
    w, h = size
    extra = {"is_mobile": True, "has_touch": True} if w < 500 else {}
    return {"viewport": {"width": w, "height": h}, **extra}


def _analysed(page: Any) -> Any:
    """Wait for the analysis (the first one runs a few seconds on the server)."""
    chart = page.locator(".chart-box")
    expect(chart).to_be_visible(timeout=margin_ms(240))
    return chart


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_analysed_replay(
    browser: Any, server_url: str, lang: str, size: tuple[int, int]
) -> None:
    page = new_page(browser, locale=LANGS[lang], **_viewport(size))
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / "partners.jsonl"))
    expect(page.locator(".replay-controls")).to_be_visible()
    page.click("#analyse-game")
    chart = _analysed(page)
    expect(page.locator(".accuracy tbody tr")).to_have_count(4)
    expect(page.locator(".chance-chart polyline")).to_have_count(2)  # two partnerships
    step = page.locator(".step")
    first = re.compile(r"^\D+ 1 \D")  # "Move 1 of", "Ход 1 из"
    expect(step).to_have_text(first)

    # A click at the chart's right end moves the replay to its last point.
    box = chart.bounding_box()
    assert box is not None
    chart.click(position={"x": box["width"] - 4, "y": box["height"] / 2})
    last = chart.get_attribute("aria-valuemax")
    assert last is not None and int(last) > 10
    expect(chart).to_have_attribute("aria-valuenow", last)
    expect(step).not_to_have_text(first)
    # The keyboard: the chart is a slider, ← a point back, focus stays on it.
    chart.focus()
    page.keyboard.press("ArrowLeft")
    expect(chart).to_have_attribute("aria-valuenow", str(int(last) - 1))
    expect(chart).to_be_focused()
    page.keyboard.press("Home")
    expect(chart).to_have_attribute("aria-valuenow", "0")

    # N: the next marked decision, shown with its mark and the best action; B: back.
    page.click("[data-action=first]")
    expect(step).to_have_text(first)
    page.keyboard.press("n")
    note = page.locator("#decision-note .mark")
    expect(note).to_have_text(MARK)
    expect(page.locator(".replay-where .mark")).to_be_visible()
    expect(page.locator("#decision-note li")).to_have_count(2)  # played, and the best
    at = step.inner_text()
    page.keyboard.press("n")
    expect(step).not_to_have_text(at)
    expect(note).to_have_text(MARK)
    page.keyboard.press("b")
    expect(step).to_have_text(at)
    # The buttons do the same (a phone has no keys).
    page.click("[data-action=next-mistake]")
    expect(step).not_to_have_text(at)

    page.evaluate("() => scrollTo(0, 0)")
    shot(page, f"analysis-{lang}-{size[0]}x{size[1]}", full=True)
    if size == LAPTOP:  # axe at both sizes, once a language
        assert_accessible(page, f"the analysed replay ({lang})")
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


@pytest.fixture(scope="module")
def finished(server_url: str) -> tuple[str, str]:
    """A table whose game is over (a player and a bot to 1 point), and its player's token."""
    return play_to_the_end(server_url)


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_over_panel_analyses_the_game(
    browser: Any, server_url: str, finished: tuple[str, str], lang: str
) -> None:
    table, token = finished
    page = new_page(browser, locale=LANGS[lang], **_viewport(PHONE))
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    button = page.locator("#game-over #analyse-game")
    expect(button).to_be_visible()
    for w, h in (PHONE, LAPTOP):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("w => innerWidth === w", arg=w)
        page.evaluate("() => scrollTo(0, 0)")
        expect(button).to_be_visible()
        shot(page, f"analysis-game-over-{lang}-{w}x{h}", full=False)
    button.click()
    expect(page).to_have_url(re.compile(r"#replay$"))
    _analysed(page)
    expect(page.locator(".accuracy tbody tr")).to_have_count(2)
    assert page.js_errors == []
    page.context.close()


def test_an_analysis_that_does_not_fit_the_game_is_refused(browser: Any, server_url: str) -> None:
    # The viewer trusts no answer: an analysis whose decisions are not this game's
    # bids and cards (here: one decision's action changed to another legal one) is
    # refused with words in the reader's language, and nothing of it is shown.
    page = new_page(browser)
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / "partners.jsonl"))
    expect(page.locator(".replay-controls")).to_be_visible()

    def forged(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        if body.get("result") is None:  # the job still runs: its progress as it is
            route.fulfill(response=answer)
            return
        decisions = body["result"]["games"][0]["decisions"]
        d = next(x for x in decisions if len(x["values"]) > 1)
        # Another legal action of that decision: valid on its own, not what was played.
        d["action"] = next(k for k in d["values"] if k != d["action"])
        route.fulfill(response=answer, json=body)

    page.route("**/api/analysis", forged)
    page.route("**/api/analysis/*", forged)
    page.click("#analyse-game")
    alert = page.locator("#analysis [role=alert]")
    expect(alert).to_have_text("The analysis could not be read; try again.", timeout=margin_ms(240))
    expect(page.locator(".chart-box")).to_have_count(0)
    assert page.js_errors == []
    page.context.close()
