"""An invite link opened after the game began: no "Join the table" form with no seat in
it, but what there is: watch the game, take over a bot's seat at a quick-play table, or
watch the replay of a game that is over. Against the real server, in English and
Russian, on a phone and a laptop."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import PHONE, new_page, post_json, shot

pytest.importorskip("websockets", reason="needs the server extra")

from tests.server.helpers import Player

WIDE = {"viewport": {"width": 1280, "height": 800}}


def _table(url: str, bot_delay: float) -> tuple[str, str]:
    """A heads-up table against a bot, Ada seated: under way from her claim."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "beginner"}]
    body = {
        "rules": {"players": 2, "target": 3},
        "seats": seats,
        "options": {"bot_delay": bot_delay},
    }
    table = post_json(url + "/api/tables", body)["id"]
    token = post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    return str(table), str(token)


def test_a_late_invite_to_a_game_under_way_offers_to_watch(browser: Any, server_url: str) -> None:
    table, _ = _table(server_url, bot_delay=10)
    for lang, ctx, heading in (
        ("en", WIDE, "The game has started"),
        ("ru", PHONE, "Игра уже идёт"),
    ):
        page = new_page(
            browser, locale=f"{lang}-{lang.upper()}" if lang == "ru" else "en-US", **ctx
        )
        page.goto(f"{server_url}/t/{table}")
        expect(page.locator("h1")).to_have_text(heading)
        # Nothing to fill in and no seat to take: the form with no seat is gone.
        expect(page.locator("#join-name")).to_have_count(0)
        expect(page.locator("[data-seat] >> text=Sit here")).to_have_count(0)
        expect(page.locator("#new-game")).to_have_attribute("href", "/")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        shot(page, f"late-invite-playing-{lang[:2]}")
        page.click("#watch")
        page.wait_for_function("() => window.pitchTable.msg?.status === 'playing'")
        expect(page.locator(".seat").first).to_be_visible()
        assert page.evaluate("() => window.pitchTable.seat") is None  # a spectator
        assert page.js_errors == []
        page.context.close()


def test_a_late_invite_to_a_finished_game_offers_its_replay(browser: Any, server_url: str) -> None:
    table, token = _table(server_url, bot_delay=0)
    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        play = pool.submit(lambda: asyncio.run(Player(server_url, table, token, seed=3).play()))
        assert play.result(timeout=300)["status"] == "over"
    page = new_page(browser, locale="ru-RU", **PHONE)
    page.goto(f"{server_url}/t/{table}")
    expect(page.locator("h1")).to_have_text("Игра окончена")
    expect(page.locator("#join-name")).to_have_count(0)
    expect(page.locator("#rematch-link")).to_have_count(0)  # nobody asked for one
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(page, "late-invite-over-ru")
    page.click("#watch-replay")
    expect(page.locator(".replay-controls")).to_be_visible()
    expect(page.locator(".replay-names, body")).to_contain_text("Ada")
    assert page.js_errors == []
    page.context.close()


def test_a_late_invite_to_a_quick_table_takes_over_a_bot(browser: Any, server_url: str) -> None:
    body = {"rules": {"players": 3, "target": 21}, "level": "beginner"}  # rules no other test uses
    table = post_json(server_url + "/api/quickplay", body)["table"]
    ada = post_json(f"{server_url}/api/tables/{table}/quickseat", {"name": "Ada"})
    assert ada["waiting"] is False  # the free seat: the game starts
    page = new_page(browser, locale="ru-RU", **PHONE)
    page.goto(f"{server_url}/t/{table}")
    expect(page.locator("h1")).to_have_text("Присоединиться к столу")
    expect(page.locator("#take-bot-seat")).to_have_text("Занять место бота")
    shot(page, "late-invite-quick-ru")
    page.fill("#join-name", "Боб")
    page.click("#take-bot-seat")
    # Between hands the seat is his at once; in a hand, when it ends (the bot plays on).
    page.wait_for_function("() => (window.pitchTable.waiting ?? window.pitchTable.seat) !== null")
    waiting = page.evaluate("() => window.pitchTable.waiting")
    seat = page.evaluate("() => window.pitchTable.waiting ?? window.pitchTable.seat")
    assert seat != ada["seat"]
    if waiting is not None:
        expect(page.locator("#notices .arriving")).to_contain_text(
            f"Вы займёте место {seat + 1} вместе с его очками"
        )
    else:
        expect(page.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("Боб")
    shot(page, "late-invite-quick-seated-ru")
    assert page.js_errors == []
    page.context.close()
