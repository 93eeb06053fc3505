"""The rules page (/rules): every rule of RULES.md by its id, in each of the six
languages, with the section headings of that language; /rules#R4.3 scrolls to R4.3 and
marks it; the page follows the language switch, fits a 360 px phone and a desktop, and
prints without the controls; and a refused move's rule id links to its rule."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.i18n import LANGUAGES
from tests.support.timing import margin_ms
from tests.web import a11y
from tests.web.conftest import STATIC, browser_locale, new_page, post_json, seat_in, shot
from tests.web.test_rulebook import rule_ids

FITS = "() => document.documentElement.scrollWidth <= innerWidth"


def book(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / f"rulebook/{lang}.json").read_text("utf-8"))
    return data


def headings(lang: str) -> list[str]:
    data = book(lang)
    return [f"{s['id']} {s['title']}" for s in data["sections"]] + [
        data["houseRules"]["title"],
        data["examples"]["title"],
    ]


def rule(page: Any, rid: str) -> Any:
    return page.locator(f'.rule[id="{rid}"]')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_in_every_language(browser: Any, server_url: str, lang: str) -> None:
    page = new_page(browser, locale=browser_locale(lang))
    page.goto(server_url + "/rules")
    expect(page.locator("#rulebook")).to_have_attribute("lang", lang)
    expect(page.locator("#rulebook h1")).to_have_text(book(lang)["title"])
    expect(page.locator(".rule > .rule-id")).to_have_text(rule_ids())
    expect(page.locator(".rule-section h2")).to_have_text(headings(lang))
    expect(page.locator("#rules-link")).to_have_attribute("aria-current", "page")
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


def test_a_rule_by_its_address(page: Any, server_url: str) -> None:
    page.goto(server_url + "/rules#R4.3")
    expect(rule(page, "R4.3")).to_have_class(re.compile(r"\bis-target\b"))
    expect(rule(page, "R4.3")).to_be_in_viewport()
    expect(page.locator(".is-target")).to_have_count(1)
    # A link on the page moves the mark without drawing the page again.
    page.evaluate("() => { document.getElementById('rulebook').dataset.kept = 'yes'; }")
    page.locator('.rule[id="R6.2"] a.rule-id').click()
    expect(rule(page, "R6.2")).to_have_class(re.compile(r"\bis-target\b"))
    expect(rule(page, "R4.3")).not_to_have_class(re.compile(r"\bis-target\b"))
    expect(page.locator("#rulebook")).to_have_attribute("data-kept", "yes")
    page.go_back()
    expect(rule(page, "R4.3")).to_have_class(re.compile(r"\bis-target\b"))
    # The top bar's link comes from any page; the lobby's brand link leads back.
    page.locator(".topbar .brand").click()
    expect(page.locator("#create-table")).to_be_visible()
    page.locator("#rules-link").click()
    expect(page).to_have_url(re.compile(r"/rules$"))
    expect(page.locator(".rule")).to_have_count(len(rule_ids()))


def test_a_malformed_address_names_no_rule(page: Any, server_url: str) -> None:
    # decodeURIComponent threw on it: the page never got ready (the fixture checks
    # that no script error happened).
    page.goto(server_url + "/rules#%E0%A4%A")
    expect(page.locator("body")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator(".rule")).to_have_count(len(rule_ids()))
    expect(page.locator(".is-target")).to_have_count(0)


def test_the_language_switch_redraws_it(page: Any, server_url: str) -> None:
    page.goto(server_url + "/rules#R5.4")
    expect(page.locator("#rulebook h1")).to_have_text(book("en")["title"])
    page.select_option("#lang", "ru")
    expect(page.locator("#rulebook")).to_have_attribute("lang", "ru")
    expect(page.locator(".rule-section h2")).to_have_text(headings("ru"))
    expect(page.locator("#rules-link")).to_have_text("Правила")
    expect(rule(page, "R5.4")).to_have_class(re.compile(r"\bis-target\b"))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_it_fits_and_prints(browser: Any, server_url: str, lang: str) -> None:
    page = new_page(browser, locale=browser_locale(lang))
    page.goto(server_url + "/rules#R3.6")
    expect(rule(page, "R3.6")).to_have_class(re.compile(r"\bis-target\b"))
    for w, h in ((360, 740), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("w => innerWidth === w", arg=w)
        assert page.evaluate(FITS), f"{lang} {w}x{h}: wider than the window"
        if (w, h) != (360, 740):
            page.locator('.rule[id="R3.6"]').scroll_into_view_if_needed()
            shot(page, f"rules-{lang}-{w}x{h}", full=False)
            page.evaluate("() => scrollTo(0, 0)")
            shot(page, f"rules-top-{lang}-{w}x{h}", full=False)
            a11y.assert_accessible(page, f"the rules ({lang} {w}x{h})", None)
    page.emulate_media(media="print")
    expect(page.locator("#top")).to_be_hidden()
    expect(page.locator(".rules-toc")).to_be_hidden()
    expect(page.locator(".rule").first).to_be_visible()
    assert page.js_errors == []
    page.context.close()


REFUSABLE = """() => { const S = window.pitchTable; const g = S && S.msg && S.msg.game;
  return !!g && g.turn === S.seat && g.legal.length > 0; }"""


def test_a_refusal_links_to_its_rule(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    """Play a heads-up game by the first legal move until a move the rules forbid can be
    tried (a bid below the high bid, a pass the dealer may not make, a card that does not
    follow suit); its refusal names the rule, and the rule's link opens it on /rules."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    body = {"rules": {"players": 2}, "seats": seats, "options": {"bot_delay": 0}}
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    leave_after.append((table, token))
    page = new_page(browser)
    seat_in(page, table, 0, token)
    page.goto(f"{server_url}/t/{table}")
    for _ in range(300):
        page.wait_for_function(REFUSABLE, timeout=margin_ms(30))
        st = page.evaluate(
            "() => { const m = window.pitchTable.msg; return {seq: m.seq, g: m.game}; }"
        )
        g = st["g"]
        if g["phase"] == "bid":
            options = ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]
            bad = [a for a in options if a not in g["legal"]]
            if bad:
                # aria-disabled, not disabled: the click explains why (Playwright waits
                # for an enabled element unless forced).
                page.click(f'#actions [data-action="{bad[0]}"]', force=True)
                break
        else:
            bad = [c for c in g["hand"] if c not in g["legal"]]
            if bad:
                page.click(f'#hand [data-card="{bad[0]}"]')
                break
        page.click(f'[data-action="{g["legal"][0]}"], #hand [data-card="{g["legal"][0]}"]')
        page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=st["seq"])
    else:
        raise AssertionError("no move to refuse within 300 moves")
    link = page.locator("#toast.show.error a.rule-link")
    expect(link).to_have_count(1)
    rid = str(link.text_content())
    assert re.fullmatch(r"R[34]\.\d", rid), rid
    expect(page.locator("#toast")).to_contain_text(f"(rule {rid})")
    shot(page, "table-refusal-link")
    link.click()
    expect(page).to_have_url(re.compile(rf"/rules#{re.escape(rid)}$"))
    expect(rule(page, rid)).to_have_class(re.compile(r"\bis-target\b"))
    expect(rule(page, rid)).to_be_in_viewport()
    assert page.js_errors == []
    page.context.close()
