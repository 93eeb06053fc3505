"""The game-over panel (issue 44 item 4): who won, the final score and Rematch are on
screen without scrolling at every size, from a 360 px phone to a 1920 px desktop, in
English and in Russian (on a phone the panel started below the board, out of sight).

A real finished game: a player and a bot to 1 point, played out over the socket."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import new_page, play_to_the_end, seat_in, shot
from tests.web.test_layout import FAULTS, LANGS, SIZES


@pytest.fixture(scope="module")
def finished(server_url: str) -> tuple[str, str]:
    """A table whose game is over, and the token of its player's seat (0)."""
    return play_to_the_end(server_url)


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_and_rematch_are_on_screen(
    browser: Any, server_url: str, finished: tuple[str, str], lang: str
) -> None:
    table, token = finished
    page = new_page(browser, locale=LANGS[lang])
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    panel = page.locator("#game-over")
    expect(panel.locator("#rematch")).to_be_visible()
    wanted = {
        "the result": panel.locator(".winner-line"),
        "the final score": panel.locator(".final-score"),
        "Rematch": panel.locator("#rematch"),
    }
    off = {}
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("w => innerWidth === w", arg=w)
        page.evaluate("() => scrollTo(0, 0)")
        shot(page, f"game-over-{lang}-{w}x{h}", full=False)
        for what, loc in wanted.items():
            expect(loc).to_be_visible()
            box = loc.bounding_box()
            assert box is not None
            if box["y"] < 0 or box["y"] + box["height"] > h or box["x"] + box["width"] > w:
                off.setdefault(f"{w}x{h}", []).append(f"{what} at {box}")
        assert page.evaluate(FAULTS) == [], f"{lang} {w}x{h}"
    assert not off, f"off screen before any scroll ({lang}): {off}"
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()
