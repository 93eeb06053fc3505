"""A new player's whole journey (issue 46, "Done when"), as one would try it on a laptop
(English, 1280x800) and on a phone (Russian, 390x844): sign up, quick-play a rated game
with a stranger and bots, see the rating change on the game-over panel, find oneself on
the leaderboard, befriend the stranger, invite them to a new table, block someone else,
open one's profile with the rating chart, export the data and delete the account.

The player acts through the page alone (clicks and typing, the table's own controls).
The other people are simulated over the API: the stranger signs up, quick-plays the same
rules, plays their seat over a socket and accepts the friend request; the one who gets
blocked only signs up. Against a real server, waiting on state with ``expect``; every
step's screenshot goes to /tmp/journey-shots/."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.timing import margin, margin_ms
from tests.web.conftest import PHONE, new_page, play_safe, serving
from tests.web.test_accounts import PASSWORD, sign_up

pytest.importorskip("websockets", reason="needs the server extra")

from tests.server.helpers import Player

SHOTS = Path("/tmp/journey-shots")
WIDE: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
LOOKS: dict[str, dict[str, Any]] = {
    "en": {"locale": "en-US", **WIDE},
    "ru": {"locale": "ru-RU", **PHONE},
}
TURN_OR_OVER = """() => { const S = window.pitchTable; const m = S && S.msg;
  return !!m && (m.status === "over"
    || (!!m.game && m.game.turn === S.seat && m.game.legal.length > 0)); }"""
MOVES = 200
"""Our moves at most in the rated game (three players to 7 take some 30 to 60)."""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own (every browser and client here is 127.0.0.1: sign-ups are
    not limited); quick play's bots answer at once (``serving``'s test settings)."""
    with serving(tmp_path_factory.mktemp("journey"), PITCH_SIGNUPS_PER_HOUR="1000000") as u:
        yield u


class Stranger:
    """Someone else, on another machine: an account of their own through the API."""

    def __init__(self, url: str, who: str) -> None:
        self.name = f"{who} {secrets.token_hex(2)}"
        self.http = httpx.Client(base_url=url, timeout=60)
        r = self.http.post("/api/accounts", json={"name": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.done = threading.Event()
        self.closes: list[list[Any]] = []
        """The last messages before each socket closed (a failure says them)."""

    def quick_play(self, url: str, body: dict[str, Any]) -> tuple[str, threading.Thread]:
        """Quick play with ``body`` (what the player's page asked), the seat it names
        taken and played out on a thread of its own (Playwright holds this one's loop)."""
        r = self.http.post("/api/quickplay", json=body)
        assert r.status_code == 200, r.text
        table = str(r.json()["table"])
        r = self.http.post(f"/api/tables/{table}/quickseat", json={"name": self.name})
        assert r.status_code == 200, r.text
        token = str(r.json()["token"])

        def play() -> None:
            # A socket the server closes (a loaded machine; the seat changing hands at
            # the hand's end) is opened again, as the stranger's browser would.
            for _ in range(50):
                p = Player(url, table, token, seed=7)
                with contextlib.suppress(AssertionError):  # closed before any state
                    asyncio.run(p.play())
                self.closes.append([m.get("type") for m in p.messages[-3:]])
                if (p.last_state or {}).get("status") == "over":
                    self.done.set()
                    return
                time.sleep(0.2)

        t = threading.Thread(target=play, daemon=True)
        t.start()
        return table, t


def step(page: Any, lang: str, n: int, what: str, full: bool = False) -> None:
    """A screenshot of this step, and nothing wider than the window."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(SHOTS / f"{lang}-{n:02d}-{what}.png"), full_page=full)


def play_out(page: Any) -> None:
    """Our seat's moves with the table's own buttons and cards until the game is over:
    pass when we may, else the first legal bid or card."""
    for _ in range(MOVES):
        page.wait_for_function(TURN_OR_OVER, timeout=margin_ms(60))
        msg = page.evaluate("() => window.pitchTable.msg")
        if msg["status"] == "over":
            return
        play_safe(page, msg["game"])
        page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=msg["seq"])
    raise AssertionError(f"the game did not end within {MOVES} of our moves")


def menu(page: Any, link: str) -> None:
    """A link of the top bar's account menu."""
    page.click("#account-menu summary")
    page.click(link)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_new_player_s_journey(browser: Any, url: str, lang: str, tmp_path: Path) -> None:
    started = time.monotonic()
    stranger, other = Stranger(url, "Stranger"), Stranger(url, "Troll")
    page = new_page(browser, **LOOKS[lang])
    try:
        # 1. Sign up from the top bar.
        page.goto(url + "/")
        page.wait_for_selector("body.ready")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        me = f"{'Ann' if lang == 'en' else 'Аня'} {secrets.token_hex(2)}"
        sign_up(page, me)
        expect(page.locator("input[name=player-name]")).to_have_value(me)
        step(page, lang, 1, "signed-up")

        # 2. Quick play, rated, three players: the stranger's quick play finds the table.
        page.select_option("select[name=quick-players]", "3")
        page.select_option("select[name=quick-level]", "club")
        page.locator("#quick-rated").check()
        page.locator("#quick-play").scroll_into_view_if_needed()
        step(page, lang, 2, "quick-play")
        with page.expect_request("**/api/quickplay") as asked:
            page.click("#quick-play")
        expect(page).to_have_url(re.compile(r"/t/[a-z0-9]+$"))
        table = page.url.rsplit("/", 1)[1]
        expect(page.locator("#rated-badge")).to_be_visible()
        body = json.loads(asked.value.post_data or "{}")
        assert body["rated"] is True
        theirs, stranger_plays = stranger.quick_play(url, {**body, "avoid": []})
        assert theirs == table, "the stranger was not matched to the player's table"
        # Their seat is a bot's until the hand in play ends (quick play's rule) if the
        # first bid was made already: they are named at the end, in the final score.
        step(page, lang, 3, "rated-table")

        # 3. Play it out; the game-over panel says how the rating changed.
        play_out(page)
        panel = page.locator("#game-over")
        expect(panel.locator(".winner-line")).to_be_visible()
        expect(panel.locator(".final-score")).to_contain_text(stranger.name)
        change = panel.locator("#rating-change")
        expect(change).to_contain_text(re.compile(r"\d+ → \d+"))
        after = int(re.findall(r"→ (\d+)", change.inner_text())[0])
        page.evaluate("document.getElementById('rating-change')?.scrollIntoView({block: 'center'})")
        step(page, lang, 4, "game-over")
        assert stranger.done.wait(margin(60)), f"the stranger's game did not end: {stranger.closes}"
        stranger_plays.join(margin(10))

        # 4. The leaderboard opens on the kind of table just played (solo); one rated
        # game is a provisional rating, kept off the board, but the page says what it
        # is and how many games are left to be listed.
        page.click("#board-link")
        expect(page).to_have_url(re.compile(r"/leaderboard"))
        expect(page.locator(".board-tabs a[aria-current=page]")).to_have_attribute(
            "href", "/leaderboard#solo"
        )
        mine = page.locator(".my-place")
        # The number as the page's language writes it (1,430; 1 430).
        digits = str(after)
        shown = re.compile(digits[:-3] + r"[,\s]?" + digits[-3:] if len(digits) > 3 else digits)
        expect(mine).to_contain_text(shown)
        expect(mine).to_contain_text("provisional" if lang == "en" else "предварительный")
        expect(mine).to_contain_text("9")  # of ten rated games, one played
        expect(page.locator(".board-table tr.me")).to_have_count(0)
        step(page, lang, 5, "leaderboard", full=True)

        # 5. Befriend the stranger from the Friends panel; they accept (their side).
        menu(page, "#friends-link")
        page.fill("#add-friend-name", stranger.name)
        page.click("#add-friend")
        expect(page.locator(f'#friend-outgoing li[data-name="{stranger.name}"]')).to_be_visible()
        r = stranger.http.post("/api/friends", json={"name": me})
        assert r.status_code == 200, r.text
        page.reload()
        expect(page.locator(f'#friend-list li[data-name="{stranger.name}"]')).to_be_visible()
        step(page, lang, 6, "friends", full=True)

        # 6. A new table with a seat for a friend, and the stranger invited to it.
        page.goto(url + "/")
        page.locator("form select[name=players]").last.select_option("2")
        page.select_option("select[name=seat-1-kind]", "human")
        page.click("#create-table")
        expect(page.locator("#waiting")).to_be_visible()
        new_table = page.url.rstrip("/").rsplit("/", 1)[1]
        page.click("#invite-friend")
        invite = page.locator(f'dialog.invite-dialog li[data-name="{stranger.name}"]')
        expect(invite.locator("button")).to_be_visible()
        with page.expect_response(lambda r: r.url.endswith("/api/invites")) as sent:
            invite.locator("button").click()
        assert sent.value.status == 201
        expect(invite.locator(".sent-mark")).to_be_visible()
        step(page, lang, 7, "invited")
        social = stranger.http.get("/api/social").json()
        assert [i["table"] for i in social["invites"]] == [new_table], social
        page.locator("dialog.invite-dialog").locator(
            "button", has_text=re.compile("Close|Закрыть")
        ).click()

        # 7. Block someone else, from their profile.
        page.goto(f"{url}/players/{other.name}")
        expect(page.locator("#block")).to_be_visible()
        page.once("dialog", lambda d: d.accept())
        page.click("#block")
        expect(page.locator("#unblock")).to_be_visible()
        step(page, lang, 8, "blocked")

        # 8. My profile: the rating chart with its one rated game.
        menu(page, "#my-account-link")
        page.click("#my-profile-link")
        expect(page.locator(".profile h1")).to_have_text(me)
        expect(page.locator(".rating-chart circle.point")).to_have_count(1)
        expect(page.locator(".recent-games li")).to_have_count(1)
        step(page, lang, 9, "profile", full=True)

        # 9. Export my data, then delete the account.
        menu(page, "#my-account-link")
        with page.expect_download() as got:
            page.click("#export-data")
        path = tmp_path / "export.json"
        got.value.save_as(path)
        data = json.loads(path.read_text())
        assert data["account"]["name"] == me
        assert table in [s["table"] for s in data["seats"]]
        page.fill("#delete-password", PASSWORD)
        page.locator("#delete-account").scroll_into_view_if_needed()
        step(page, lang, 10, "delete")
        page.once("dialog", lambda d: d.accept())
        page.click("#delete-account")
        expect(page.locator("#sign-in-button")).to_be_visible()
        step(page, lang, 11, "deleted")
        # Gone: the name signs in no more, and the profile is no more.
        r = httpx.post(f"{url}/api/session", json={"name": me, "password": PASSWORD}, timeout=30)
        assert r.status_code == 401
        assert page.evaluate("() => [...window.pitchI18n.missing]") == []
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()
        for s in (stranger, other):
            s.http.close()
    print(f"journey ({lang}): {time.monotonic() - started:.1f} s")
