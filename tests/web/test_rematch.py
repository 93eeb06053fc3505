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
from tests.web.conftest import new_page, post_json, seat_in, shot


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
