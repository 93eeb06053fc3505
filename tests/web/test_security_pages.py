"""The pages keep their Content-Security-Policy (issue 16): no page of ours breaks it
(a violation would mean inline script or style crept back in), and the API page works
from the package's own Swagger UI files, with no CDN, on a machine with no internet."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.a11y import assert_accessible
from tests.web.conftest import new_page, shot


def _csp_violations(page: Any) -> list[str]:
    found: list[str] = []
    page.on(
        "console",
        lambda m: found.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return found


def test_the_api_page_runs_offline_under_the_policy(browser: Any, server_url: str) -> None:
    page = new_page(browser)
    violations = _csp_violations(page)
    outside: list[str] = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(server_url) else None,
    )
    page.goto(server_url + "/docs")
    expect(page.locator(".swagger-ui .title")).to_contain_text("pitch server")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    shot(page, "docs-en-desktop")
    # No axe here: this page is Swagger UI's own markup (the fastapi-offline package's
    # files), whose faults (contrast of its method labels, buttons inside buttons) are
    # upstream's; the game's pages are checked where their tests open them.
    assert outside == [], outside
    assert violations == [], violations
    assert page.js_errors == []
    page.context.close()


def test_the_game_pages_break_no_policy(browser: Any, server_url: str) -> None:
    page = new_page(browser)
    violations = _csp_violations(page)
    page.goto(server_url + "/")
    expect(page.locator("#main")).not_to_contain_text("Pitch…")
    page.goto(server_url + "/#/replay")
    page.goto(server_url + "/fairness")
    expect(page.locator("h1")).to_have_text("How cards are dealt")
    assert_accessible(page, "the fairness page")
    assert page.evaluate("getComputedStyle(document.body).maxWidth") != "none"  # page.css
    assert violations == [], violations
    assert page.js_errors == []
    page.context.close()
