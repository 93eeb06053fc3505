"""The lobby's house rules come from the engine's option table (GET /api/rules/options):
each is shown in the page's language, and a table made with one has it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from pitch.engine import Rules, dumps, game_record
from pitch.engine.rules import OPTIONS
from tests.support.deals import dealt, finish_hand, play
from tests.web.conftest import new_page, shot

HOUSE = [o for o in OPTIONS if o.house]


def _house_rule_labels(page: Any) -> list[str]:
    return page.locator("#house-rules label").all_inner_texts()  # type: ignore[no-any-return]


def test_house_rules_are_the_option_table_in_english_and_russian(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    page = new_page(browser, locale="en-GB")
    page.goto(server_url + "/")
    page.wait_for_selector("#house-rules input")
    assert [t.strip() for t in _house_rule_labels(page)] == [o.label for o in HOUSE]
    for o in HOUSE:
        box = page.locator(f"#house-rules input[name={o.key}]")
        # Checked: true for a yes/no option, the second word for a choice of two.
        expect(box).to_be_checked(checked=o.default is True)
    page.context.close()

    page = new_page(browser, locale="ru-RU")
    page.goto(server_url + "/")
    page.wait_for_selector("#house-rules input")
    labels = _house_rule_labels(page)
    assert "Минимальная ставка — 2" in [t.strip() for t in labels]
    assert "Смадж: ставка 4 и все четыре очка выигрывают партию" in [t.strip() for t in labels]
    assert not set(labels) & {o.label for o in HOUSE}  # nothing left in English
    # Each rule's help is shown under it (a phone has no hover) and describes its box.
    help_ru = "Сдающий может забрать контракт, повторив старшую ставку."
    expect(page.locator("#house-rules .rule-help")).to_have_count(len(HOUSE))
    steal = page.locator("#house-rules input[name=dealer_may_steal]")
    expect(steal).to_have_accessible_description(help_ru)
    expect(page.locator("#house-help-dealer_may_steal")).to_be_visible()
    # Counts take the form their number needs (tn: "1 минута", "2 минуты", "3 минуты").
    expect(page.locator("select[name=turn-seconds] option")).to_have_text(
        ["Выкл.", "15 секунд", "30 секунд", "1 минута", "2 минуты"]
    )
    expect(page.locator("select[name=grace-seconds] option").nth(2)).to_have_text(
        "Бот играет за игрока через 1 минуту"
    )
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    shot(page, "lobby-house-rules-ru")

    page.fill("input[name=player-name]", "Ada")
    page.select_option("select[name=players]", "2")
    page.check("#house-rules input[name=min_bid]")
    page.check("#house-rules input[name=smudge]")
    page.uncheck("#house-rules input[name=dealer_may_steal]")
    page.click("#create-table")
    page.wait_for_function("() => location.pathname.startsWith('/t/')")
    table = page.url.rstrip("/").split("/")[-1]
    token = page.evaluate(f"() => localStorage.getItem('pitch.token.{table}')")
    leave_after.append((table, token))
    with urllib.request.urlopen(f"{server_url}/api/tables/{table}") as r:
        rules = json.load(r)["rules"]
    assert rules["min_bid"] == 2 and rules["dealer_may_steal"] is False
    assert rules["smudge"] is True
    assert rules["low_to"] == "captor" and rules["players"] == 2
    assert page.js_errors == []
    page.context.close()


def test_the_last_summary_says_won_by_smudge(browser: Any, server_url: str, tmp_path: Path) -> None:
    # A heads-up game won at once by a Smudge (tests/engine/test_smudge.py), replayed.
    rules = Rules(players=2, smudge=True)
    s = dealt(rules, ["As Ks Qs Js Ts 2s", "3h 4h 5h 6h 7h 8h"], dealer=1)
    finish_hand(play(s, "bid 4"))
    assert s.end_reason == "smudge"
    path = tmp_path / "smudge.jsonl"
    path.write_text(dumps(game_record(s)) + "\n", encoding="utf-8")
    cases = [
        (locale, says, size)
        for locale, says in [("en-GB", "Smudge: it bid 4"), ("ru-RU", "Смадж: ставка 4")]
        for size in ((390, 844), (1280, 800))
    ]
    for locale, says, (width, height) in cases:
        page = new_page(browser, locale=locale, viewport={"width": width, "height": height})
        page.goto(server_url + "/#replay")
        page.wait_for_selector("body.ready")
        page.set_input_files("#record-file", str(path))
        expect(page.locator(".replay-controls")).to_be_visible()
        page.click("[data-action=last]")
        end = page.locator(".hand-summary .game-end")
        expect(end).to_have_attribute("data-end", "smudge")
        expect(end).to_contain_text(says)
        end.scroll_into_view_if_needed()
        shot(page, f"smudge-summary-{locale[:2]}-{width}x{height}", full=False)
        assert page.evaluate("() => [...window.pitchI18n.missing]") == []
        assert page.js_errors == []
        page.context.close()


def test_the_partnership_box_follows_the_engines_only_with(browser: Any, server_url: str) -> None:
    # R1.2: the form offers partnerships only where the option's `only_with` (4 players)
    # holds, and forgets a ticked box when the players change; the page counts nothing.
    page = new_page(browser, locale="en-GB")
    page.goto(server_url + "/")
    players = page.locator("select[name=players]").first
    box = page.locator("input[name=partnerships]")
    expect(players).to_have_value("4")
    expect(box).to_be_enabled()
    box.check()
    players.select_option("5")
    expect(box).to_be_disabled()
    expect(box).not_to_be_checked()
    players.select_option("4")
    expect(box).to_be_enabled()
    expect(box).not_to_be_checked()
    players.select_option("3")
    expect(box).to_be_disabled()
    page.context.close()
