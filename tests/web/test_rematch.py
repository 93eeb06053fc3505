"""Rematch with two people (issue 17): one asks, the other sees it offered and joins
with one click, and both play the same seats and rules again."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request
from typing import Any

from playwright.sync_api import expect

from tests.server.helpers import Player
from tests.web.a11y import assert_accessible
from tests.web.conftest import new_page, post_json, seat_in, shot, shots


def test_rematch_with_two_people(browser: Any, server_url: str) -> None:
    table = post_json(server_url + "/api/tables", {"rules": {"players": 2, "target": 1}})["id"]
    tokens = [
        post_json(f"{server_url}/api/tables/{table}/seats/{s}", {"name": n})["token"]
        for s, n in enumerate(["Ada", "Bo"])
    ]

    async def play() -> None:  # the game itself, over the socket: only its end matters here
        await asyncio.gather(
            *(Player(server_url, table, tok, seed=i).play() for i, tok in enumerate(tokens))
        )

    # Playwright's sync API holds this thread's event loop: the players get their own.
    done = threading.Thread(target=lambda: asyncio.run(play()))
    done.start()
    done.join(120)
    assert not done.is_alive(), "the first game did not finish"
    pages = []
    for seat, tok in enumerate(tokens):
        page = new_page(browser, **({"locale": "ru-RU"} if seat else {}))
        seat_in(page, table, seat, tok)
        page.goto(f"{server_url}/t/{table}")
        expect(page.locator("#game-over #rematch")).to_be_visible()
        assert_accessible(page, f"the game over panel (seat {seat + 1})")
        pages.append(page)
    ada, bo = pages
    expect(ada.locator("#rematch")).to_have_text("Rematch")
    ada.click("#rematch")
    expect(ada).not_to_have_url(f"{server_url}/t/{table}")
    new = ada.url.rsplit("/", 1)[1]
    # Bo, still on the finished table, sees the rematch offered and joins it.
    expect(bo.locator("#rematch")).to_have_text("Присоединиться к реваншу")
    expect(bo.locator("#rematch")).to_have_class("primary")
    shot(bo, "rematch-offered-ru")
    bo.click("#rematch")
    expect(bo).to_have_url(f"{server_url}/t/{new}")
    for page in pages:
        expect(page.locator("#hand .card")).to_have_count(6)
    shot(ada, "rematch-started-en")
    info = json.load(urllib.request.urlopen(f"{server_url}/api/tables/{new}"))
    assert [s["name"] for s in info["seats"]] == ["Ada", "Bo"]
    for page in pages:
        assert page.evaluate("() => [...window.pitchI18n.missing]") == []
        assert page.js_errors == []
        page.context.close()


def test_a_quick_play_rematch_starts_without_the_stranger(browser: Any, server_url: str) -> None:
    """Issue 44 item 2: after a quick-play game, the rematch of the player who asks
    starts at once, a bot in the seat of the stranger who has not asked (it waited
    for ever, "waiting for a friend…"); the stranger who asks later takes it back."""
    rules = {"players": 2, "target": 1}  # no other web test quick-plays these
    seats = []
    for name in ("Ada", "Bo"):  # nobody has the table open yet: Bo's seat is his at once
        table = post_json(server_url + "/api/quickplay", {"rules": rules})["table"]
        seats.append(post_json(f"{server_url}/api/tables/{table}/quickseat", {"name": name}))
    table = seats[0]["table"]
    assert seats[1]["table"] == table and seats[1]["waiting"] is False

    async def play() -> None:
        await asyncio.gather(
            *(Player(server_url, table, s["token"], seed=i).play() for i, s in enumerate(seats))
        )

    done = threading.Thread(target=lambda: asyncio.run(play()))
    done.start()
    done.join(120)
    assert not done.is_alive(), "the first game did not finish"
    pages = []
    for s, locale in zip(seats, ("en-US", "ru-RU"), strict=True):
        page = new_page(browser, locale=locale)
        seat_in(page, table, s["seat"], s["token"])
        page.goto(f"{server_url}/t/{table}")
        expect(page.locator("#game-over #rematch")).to_be_visible()
        pages.append(page)
    ada, bo = pages
    ada.click("#rematch")
    expect(ada).not_to_have_url(f"{server_url}/t/{table}")
    new = ada.url.rsplit("/", 1)[1]
    expect(ada.locator("#hand .card")).to_have_count(6)  # playing, not waiting for Bo
    expect(ada.get_by_text("waiting for a friend…")).to_have_count(0)
    shots(ada, "quick-rematch-started-en")
    bo.click("#rematch")
    expect(bo).to_have_url(f"{server_url}/t/{new}")
    info = json.load(urllib.request.urlopen(f"{server_url}/api/tables/{new}"))
    assert info["seats"][1]["open"] is False
    assert "Bo" in (info["seats"][1]["name"], info["seats"][1]["arriving"])
    shots(bo, "quick-rematch-joined-ru")
    for page in pages:
        assert page.evaluate("() => [...window.pitchI18n.missing]") == []
        assert page.js_errors == []
        page.context.close()
