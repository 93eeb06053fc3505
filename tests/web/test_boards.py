"""The leaderboard and a player's profile in Chromium, against a real server: accounts
made through the API, two rated heads-up games played out between two of them, and
established ratings of the others written to the server's database (ten rated games
each would take minutes). English at 1280x800 and Russian at 390x844, axe at both."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from pitch.server.ratings.scale import BOT_RATINGS
from pitch.store import Database
from tests.server.helpers import play_rated, seed_rating
from tests.support.timing import margin
from tests.web.a11y import assert_accessible
from tests.web.conftest import browser_locale, new_page, serving, shots

PASSWORD = "correct horse battery"
ANN, BOB = "Ann Marlowe", "Бобров"
OTHERS = {"Cleo": 1890, "Dmitri K": 1620, "Eve": 1350}
GAMES = 2
SOLO = "solo0000old"  # a solo game of Ann's, 2nd of 3, before the heads-up ones
PLACE = {"en": "2nd of 3", "ru": "2-е место из 3"}


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """The server's address and the rated games' tables, oldest first."""
    tmp = tmp_path_factory.mktemp("boards")
    with serving(tmp, PITCH_SIGNUPS_PER_HOUR="1000") as url, contextlib.ExitStack() as stack:
        clients = {}
        for name in [ANN, BOB, *OTHERS]:
            c = stack.enter_context(httpx.Client(base_url=url, timeout=60))
            r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            clients[name] = c
        tables = [play_rated(url, [clients[ANN], clients[BOB]]).table for _ in range(GAMES)]
        db = Database(f"sqlite:///{tmp / 'pitch.db'}", migrate=False)
        try:
            for name, rating in OTHERS.items():
                seed_rating(db, name, rating, 14)
            seed_rating(db, ANN, 1710, 11)
            _seed_solo_game(db, ANN)
        finally:
            db.engine.dispose()
        # Each rating is written just after its game's end: wait for the last.
        deadline = time.monotonic() + margin(30)
        while len(clients[ANN].get(f"/api/players/{ANN}").json()["history"]) < GAMES + 1:
            assert time.monotonic() < deadline, "the rated games were not rated"
            time.sleep(0.2)
        yield url, tables


def _seed_solo_game(db: Database, name: str) -> None:
    """A rated solo game of ``name``'s an hour ago, written as the server writes one:
    2nd of 3, a "loss" that raised the rating (1,500 to 1,510)."""
    from pitch.server.ratings.scale import MU, SCALE
    from pitch.store.models import AccountModel, RatedGameModel, RatingHistoryModel

    at = datetime.now(UTC) - timedelta(hours=1)
    with db.sessions.begin() as s:
        aid = s.scalar(select(AccountModel.id).where(AccountModel.name == name))
        assert aid is not None
        seats: list[dict[str, object]] = [{"seat": 0, "side": 0, "place": 1, "account": aid}]
        for seat, place in [(1, 0), (2, 2)]:
            seats.append({"seat": seat, "side": seat, "place": place, "bot": "heuristic"})
        result = {"kind": "solo", "scores": [5, 7, 2], "winners": [1], "seats": seats}
        s.add(RatedGameModel(table_id=SOLO, kind="solo", rated_at=at, result=result))
        s.add(
            RatingHistoryModel(
                table_id=SOLO,
                account_id=aid,
                kind="solo",
                at=at,
                mu_before=MU,
                sigma_before=3.0,
                mu_after=MU + 10 / SCALE,
                sigma_after=3.0,
                outcome="loss",
                left=False,
            )
        )


def _signed_in_page(browser: Any, url: str, lang: str, width: int, height: int) -> Any:
    page = new_page(
        browser, locale=browser_locale(lang), viewport={"width": width, "height": height}
    )
    r = page.request.post(f"{url}/api/session", data={"name": ANN, "password": PASSWORD})
    assert r.status == 200, r.text()
    return page


@pytest.mark.parametrize(
    ("lang", "width", "height"), [("en", 1280, 800), ("ru", 390, 844)], ids=["en", "ru"]
)
def test_leaderboard_and_profile(
    browser: Any, boards: tuple[str, list[str]], lang: str, width: int, height: int
) -> None:
    url, tables = boards
    page = _signed_in_page(browser, url, lang, width, height)
    try:
        page.goto(f"{url}/")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        page.click("#board-link")
        expect(page).to_have_url(f"{url}/leaderboard")
        page.click(".board-tabs a[href='/leaderboard#solo']")
        rows = page.locator(".board-table tbody tr")
        # Three established players and Ann, and the four bots, best first.
        expect(rows).to_have_count(len(OTHERS) + 1 + len(BOT_RATINGS))
        expect(rows.first.locator("th")).to_have_text(re.compile(r"Cleo"))
        expect(page.locator("tr[data-bot='master'] .bot-badge")).to_be_visible()
        expect(page.locator("tr[data-bot]:not([data-bot='']) a")).to_have_count(0)
        mine = page.locator("tr.me")
        expect(mine).to_have_count(1)
        expect(mine.locator("a")).to_have_text(ANN)
        expect(page.locator(".my-place")).to_contain_text("1")
        expect(page.locator("tr:has(a:text-is('Бобров'))")).to_have_count(0)  # provisional
        assert_accessible(page, f"leaderboard ({lang})")
        shots(page, f"boards-leaderboard-{lang}", full=True)

        mine.locator("a").click()
        expect(page).to_have_url(re.compile(r"/players/Ann%20Marlowe$"))
        expect(page.locator("h1")).to_have_text(ANN)
        points = page.locator(".rating-chart circle.point")
        expect(points).to_have_count(GAMES + 1)  # one point per rated game
        # The line starts a step before the first game, at the rating before it (one
        # game is a line from 1,500, not a lone dot).
        line = page.locator(".rating-chart polyline.kind-headsup")
        expect(line).to_have_count(1)
        xy = [tuple(map(float, p.split(","))) for p in (line.get_attribute("points") or "").split()]
        assert len(xy) == GAMES + 1, xy
        dot = page.locator(".rating-chart circle.point.kind-headsup").first
        first_x, first_y = (float(dot.get_attribute(a) or "nan") for a in ("cx", "cy"))
        assert xy[0][0] < first_x and xy[0][1] != first_y and xy[1] == (first_x, first_y), xy
        expect(page.locator(".rating-chart .tick").first).to_be_visible()
        # One tab stop, the newest game; the arrow keys walk back to the first.
        expect(page.locator(".rating-chart [tabindex='0']")).to_have_count(1)
        points.last.focus()
        for _ in range(GAMES):
            page.keyboard.press("ArrowLeft")
        oldest = page.locator(".rating-chart circle.point.kind-solo")  # game 1
        expect(oldest).to_be_focused()
        first = oldest.get_attribute("aria-label")
        assert first and "1" in first and PLACE[lang] in first
        expect(page.locator(".chart-readout")).to_have_text(first)
        expect(page.locator(".profile-stats thead th")).to_have_count(2)  # heads-up, solo
        expect(page.locator(".profile-stats tbody tr")).to_have_count(6)
        recent = page.locator(".recent-games li")
        expect(recent).to_have_count(GAMES + 1)
        # A solo game says its place: a "loss" here raised the rating.
        expect(recent.last).to_have_attribute("data-table", SOLO)
        expect(recent.last.locator("b")).to_have_text(PLACE[lang])
        expect(recent.first).to_have_attribute("data-table", tables[-1])  # newest first
        assert_accessible(page, f"profile ({lang})")
        shots(page, f"boards-profile-{lang}", full=True)
        page.set_viewport_size({"width": width, "height": height})

        recent.first.locator("a").click()
        expect(page).to_have_url(f"{url}/#replay-{tables[-1]}")
        expect(page.locator(".replay-controls")).to_be_visible()
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()


def test_an_unknown_player_is_said_so(browser: Any, boards: tuple[str, list[str]]) -> None:
    url, _ = boards
    page = new_page(browser)
    try:
        page.goto(f"{url}/players/{'x' * 40}")
        expect(page.locator("h1")).to_have_text("No player by that name")
        page.goto(f"{url}/players/%E2%80%AEAnn%20Marlowe")  # a bidi override before it
        expect(page.locator("h1")).to_have_text("No player by that name")
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()
