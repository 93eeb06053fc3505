"""Friends and safety in the browser (issue 46): two browsers as two accounts befriend
each other and see each other online, one invites the other from a table and the notice
in the other's lobby opens it, a chat line is reported (and stored), a block from a
profile ends the friendship; a guest's pages ask nothing new. Against a real server,
waiting on state with ``expect``."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.a11y import assert_accessible
from tests.web.conftest import PHONE, new_page, serving
from tests.web.test_accounts import PASSWORD, sign_up

pytest.importorskip("websockets", reason="needs the server extra")

from pitch.store import Database
from pitch.store.social import SocialCaps, SocialStore

WIDE: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/social-shots")
# The lobby and the Friends panel ask GET /api/social every 20 s: a change made in the
# other browser shows within one poll (and the machine's slowness on top).
POLL = margin_ms(40)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of its own (every browser here is 127.0.0.1: sign-ups unlimited), and
    its database file, where the reports are read back."""
    tmp = tmp_path_factory.mktemp("social-web")
    with serving(tmp, PITCH_SIGNUPS_PER_HOUR="1000000") as u:
        yield u, tmp / "pitch.db"


def _name(who: str) -> str:
    return f"{who} {secrets.token_hex(3)}"


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def player(browser: Any, url: str, who: str, lang: str = "en") -> tuple[Any, str]:
    """A new browser (en: a laptop; ru: a phone) signed up as a new account."""
    look: dict[str, Any] = {"locale": "ru-RU", **PHONE} if lang == "ru" else WIDE
    page = new_page(browser, **look)
    page.goto(url + "/")
    page.wait_for_selector("body.ready")
    name = _name(who)
    sign_up(page, name)
    return page, name


def api(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> int:
    """A request from the page (its session cookie, its Origin): the status."""
    status: int = page.evaluate(
        """async ([method, path, body]) => (await fetch(path, {method,
             headers: {"Content-Type": "application/json"},
             body: body ? JSON.stringify(body) : undefined})).status""",
        [method, path, body],
    )
    return status


def fits(page: Any) -> None:
    """Nothing on the page is wider than its window (a long Russian word, a long name)."""
    page.wait_for_function("() => document.documentElement.scrollWidth <= innerWidth")


def friend_row(page: Any, name: str) -> Any:
    return page.locator(f'#friend-list li[data-name="{name}"]')


def test_befriend_invite_join_and_report_a_chat_line(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, db = server
    ann, ann_name = player(browser, url, "Ann", "en")
    bo, bo_name = player(browser, url, "Bo", "ru")

    # Ann asks Bo from the Friends panel (the top bar's menu leads there).
    ann.click("#account-menu summary")
    ann.click("#friends-link")
    expect(ann.locator("#no-friends")).to_be_visible()
    ann.fill("#add-friend-name", "nobody " + secrets.token_hex(3))
    ann.click("#add-friend")
    expect(ann.locator("#add-friend-error")).to_have_text("No player goes by that name.")
    ann.fill("#add-friend-name", bo_name)
    ann.click("#add-friend")
    expect(ann.locator(f'#friend-outgoing li[data-name="{bo_name}"]')).to_be_visible()
    expect(ann.locator("#add-friend-error")).to_be_empty()

    # Bo accepts on his Friends panel (in Russian, on a phone).
    bo.goto(url + "/account#friends")
    request = bo.locator(f'#friend-requests li[data-name="{ann_name}"]')
    expect(request).to_be_visible()
    expect(request.get_by_role("button", name="Принять")).to_be_visible()
    fits(bo)
    shot(bo, "friends-request-ru-390", full=True)
    request.get_by_role("button", name="Принять").click()
    expect(friend_row(bo, ann_name)).to_have_attribute("data-online", "1")
    expect(bo.locator("#friend-requests")).to_have_count(0)
    # Ann's panel hears it at its next poll, with Bo online.
    expect(friend_row(ann, bo_name)).to_have_attribute("data-online", "1", timeout=POLL)
    expect(ann.locator("#friend-outgoing")).to_have_count(0)
    shot(ann, "friends-en-1280", full=True)
    shot(bo, "friends-ru-390", full=True)
    assert_accessible(ann, "the Friends panel (en)", None)
    assert_accessible(bo, "the Friends panel (ru)", None)

    # Ann makes a table with a seat for a friend, and invites Bo from its waiting room.
    ann.goto(url + "/")
    expect(ann.locator("input[name=player-name]")).to_have_value(ann_name)
    ann.locator("form select[name=players]").last.select_option("2")
    ann.select_option("select[name=seat-1-kind]", "human")
    ann.click("#create-table")
    expect(ann.locator("#waiting")).to_be_visible()
    table = ann.url.rstrip("/").rsplit("/", 1)[1]
    ann.click("#invite-friend")
    dialog = ann.locator("dialog.invite-dialog")
    expect(dialog.locator(f'li[data-name="{bo_name}"] button')).to_be_visible()
    shot(ann, "invite-dialog-en-1280")
    with ann.expect_response(lambda r: r.url.endswith("/api/invites")) as sent:
        dialog.locator(f'li[data-name="{bo_name}"] button').click()
    assert sent.value.status == 201
    expect(dialog.locator(f'li[data-name="{bo_name}"] .sent-mark')).to_have_text(
        "✓ Invitation sent"
    )
    expect(ann.locator("#toast")).to_have_text(f"Invitation sent to {bo_name}.")
    shot(ann, "invite-sent-en-1280")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)

    # The notice in Bo's lobby; Join opens the table.
    bo.goto(url + "/")
    notice = bo.locator(f'.invite-notice[data-table="{table}"]')
    expect(notice).to_contain_text(f"{ann_name} приглашает вас за стол.")
    fits(bo)
    shot(bo, "lobby-invite-ru-390")
    assert_accessible(bo, "the lobby with an invitation (ru)", None)
    notice.get_by_role("link", name="Войти").click()
    expect(bo).to_have_url(re.compile(f"/t/{table}$"))
    # Signed in, the seat's name is the account's by default; Bo sits as plain "Bo",
    # and a chat line carries that name (what a report sends): the server finds the seat.
    expect(bo.locator("#join-name")).to_have_value(bo_name)
    bo.fill("#join-name", "Bo")
    bo.locator("#open-seats button.primary").first.click()

    # At the table Bo writes a line; Ann reports it from the chat.
    expect(bo.locator("#chat-text")).to_be_visible()
    # In play, a seated player may still call a friend over (to watch).
    expect(ann.locator(".side-panel #invite-friend")).to_be_visible()
    words = "you are a terrible player " + secrets.token_hex(2)
    bo.fill("#chat-text", words)
    bo.click("#chat-send")
    line = ann.locator("#chat-log li", has_text=words)
    expect(line.locator(".report-line")).to_be_visible()
    # Her own lines have no flag.
    ann.get_by_role("button", name="Hello!").click()
    expect(ann.locator("#chat-log li.mine")).to_have_count(1)
    expect(ann.locator("#chat-log li.mine .report-line")).to_have_count(0)
    shot(ann, "table-chat-en-1280", full=True)
    line.locator(".report-line").click()
    report = ann.locator("dialog.report-dialog")
    expect(report.locator("#reported-line")).to_have_text(words)
    report.locator("#report-reason").select_option("abuse")
    report.locator("#report-text").fill("Threats in the chat.")
    shot(ann, "report-line-en-1280")
    with ann.expect_response(lambda r: r.url.endswith("/api/reports")) as got:
        report.locator("#report-send").click()
    assert got.value.status == 201
    expect(report).to_have_count(0)
    expect(ann.locator("#toast")).to_contain_text("Report sent.")
    stored = [
        r
        for r in SocialStore(Database(f"sqlite:///{db}", migrate=False), SocialCaps()).reports()
        if r.chat == words
    ]
    assert len(stored) == 1
    assert (stored[0].reporter, stored[0].reported, stored[0].table) == (ann_name, bo_name, table)
    assert (stored[0].name, stored[0].seat) == ("Bo", 1)
    assert (stored[0].reason, stored[0].text) == ("abuse", "Threats in the chat.")

    # Bo's phone at the table (in Russian): the invite button and the chat's flags fit.
    bo.locator("#chat-log li:not(.mine)").scroll_into_view_if_needed()
    expect(bo.locator("#chat-log .report-line")).to_have_count(1)
    fits(bo)
    shot(bo, "table-chat-ru-390", full=True)
    bo.locator("#chat-log .report-line").click()
    expect(bo.locator("dialog.report-dialog h2")).to_contain_text("Пожаловаться")
    shot(bo, "report-line-ru-390")
    assert_accessible(bo, "the report dialog (ru)", None)
    for page in (ann, bo):
        assert page.js_errors == []
        page.context.close()


def test_block_from_a_profile_ends_the_friendship(browser: Any, server: tuple[str, Path]) -> None:
    url, db = server
    ann, ann_name = player(browser, url, "Ann", "en")
    cy, cy_name = player(browser, url, "Cy", "ru")
    # Friends already (through the API: the panel's own flow is tested above).
    assert api(ann, "POST", "/api/friends", {"name": cy_name}) == 200
    assert api(cy, "POST", "/api/friends", {"name": ann_name}) == 200

    ann.goto(f"{url}/players/{cy_name}")
    expect(ann.locator("#friend-state")).to_contain_text("Friends")
    expect(ann.locator("#remove-friend")).to_be_visible()
    shot(ann, "profile-friend-en-1280")
    assert_accessible(ann, "a friend's profile (en)", None)
    ann.once("dialog", lambda d: d.accept())
    ann.click("#block")
    expect(ann.locator("#unblock")).to_be_visible()
    expect(ann.locator("#friend-state")).to_have_count(0)
    expect(ann.locator("#befriend")).to_have_count(0)  # no request to a blocked player
    shot(ann, "profile-blocked-en-1280")

    # Gone from both players' friends; on Ann's blocked list, with Unblock.
    ann.goto(url + "/account#friends")
    expect(ann.locator(f'#blocked-players li[data-name="{cy_name}"]')).to_be_visible()
    expect(friend_row(ann, cy_name)).to_have_count(0)
    expect(ann.locator("#no-friends")).to_be_visible()
    cy.goto(url + "/account#friends")
    expect(cy.locator("#no-friends")).to_be_visible()
    expect(friend_row(cy, ann_name)).to_have_count(0)

    # Cy's profile page of Ann, on a phone in Russian: Add friend and Report; a report
    # with no table is stored.
    cy.goto(f"{url}/players/{ann_name}")
    expect(cy.locator("#report-player")).to_be_visible()
    shot(cy, "profile-ru-390")
    cy.click("#report-player")
    dialog = cy.locator("dialog.report-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#report-reason").select_option("name")
    fits(cy)
    shot(cy, "report-profile-ru-390")
    with cy.expect_response(lambda r: r.url.endswith("/api/reports")) as got:
        dialog.locator("#report-send").click()
    assert got.value.status == 201
    expect(dialog).to_have_count(0)
    mine = [
        r
        for r in SocialStore(Database(f"sqlite:///{db}", migrate=False), SocialCaps()).reports()
        if r.reporter == cy_name
    ]
    assert [(r.reported, r.table, r.chat, r.reason) for r in mine] == [
        (ann_name, None, None, "name")
    ]

    # Unblock from the Friends panel: the lists are as before the friendship.
    ann.get_by_role("button", name=f"Unblock {cy_name}").click()
    expect(ann.locator("#blocked-players")).to_have_count(0)
    # And a new request from the profile: it says where it stands.
    ann.goto(f"{url}/players/{cy_name}")
    ann.click("#befriend")
    expect(ann.locator("#friend-state")).to_have_text("Request sent")
    expect(ann.locator("#cancel-request")).to_be_visible()
    expect(ann.locator("#toast")).to_have_text(f"Friend request sent to {cy_name}.")
    for page in (ann, cy):
        assert page.js_errors == []
        page.context.close()


def test_a_guest_asks_nothing_new(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, **WIDE)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/social" in r.url else None)
    page.goto(url + "/")
    page.wait_for_selector("body.ready")
    expect(page.locator("#sign-in-button")).to_be_visible()
    expect(page.locator("#invites")).to_be_hidden()
    page.goto(url + "/account")
    expect(page.locator("#friends")).to_have_count(0)
    assert asked == []
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_new_screens_in_each_look(browser: Any, server: tuple[str, Path], lang: str) -> None:
    """The account menu, an invitation in the lobby and the invite dialog, in English on a
    laptop and in Russian on a phone: shown whole, and no axe violation."""
    url, _ = server
    me, my_name = player(browser, url, "Dee", lang)
    friend, friend_name = player(browser, url, "Eli", "en")
    assert api(me, "POST", "/api/friends", {"name": friend_name}) == 200
    assert api(friend, "POST", "/api/friends", {"name": my_name}) == 200
    word = {"en": ("Friends", "Join", "Invite"), "ru": ("Друзья", "Войти", "Пригласить")}[lang]

    me.click("#account-menu summary")
    expect(me.locator("#friends-link")).to_have_text(word[0])
    shot(me, f"menu-{lang}")
    assert_accessible(me, f"the account menu ({lang})", None)

    # The friend's table, and an invitation to it in my lobby.
    table = friend.evaluate(
        """async () => (await (await fetch("/api/tables", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({rules: {players: 2}})})).json()).id"""
    )
    assert api(friend, "POST", "/api/invites", {"name": my_name, "table": table}) == 201
    me.goto(url + "/")
    notice = me.locator(f'.invite-notice[data-table="{table}"]')
    expect(notice.get_by_role("link", name=word[1])).to_be_visible()
    fits(me)
    shot(me, f"lobby-invite-{lang}")
    assert_accessible(me, f"the lobby with an invitation ({lang})", None)
    notice.get_by_role("button").click()  # Dismiss
    expect(me.locator(".invite-notice")).to_have_count(0)

    # My waiting room, and the invite dialog with the friend online.
    me.locator("form select[name=players]").last.select_option("2")
    me.select_option("select[name=seat-1-kind]", "human")
    me.click("#create-table")
    expect(me.locator("#invite-friend")).to_be_visible()
    fits(me)
    shot(me, f"waiting-{lang}")
    me.click("#invite-friend")
    button = me.locator(f'dialog.invite-dialog li[data-name="{friend_name}"] button')
    expect(button).to_have_text(word[2])
    shot(me, f"invite-dialog-{lang}")
    assert_accessible(me, f"the invite dialog ({lang})", None)
    for page in (me, friend):
        assert page.js_errors == []
        page.context.close()


# A task later in the page (a message: the page's clock is the test's, its timers wait).
NEXT_TASK = """() => new Promise(done => {
    const c = new MessageChannel();
    c.port1.onmessage = () => done();
    c.port2.postMessage(0);
})"""
# The page hidden or shown, as when another tab comes to the front and goes.
SEEN = """state => {
    Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_lobby_asks_while_seen_and_stops_when_signed_out(
    browser: Any, server: tuple[str, Path]
) -> None:
    """GET /api/social every 20 s while the lobby is seen, never while hidden, and never
    again once the server says the session ended (401). The page's clock is Playwright's,
    moved by the test: nothing here waits on the machine's speed."""
    url, _ = server
    page, name = player(browser, url, "Fay", "en")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/social") else None)

    def settled() -> int:
        """How many asks so far, once every request started before now was seen (a
        request made after them is seen after them)."""
        with page.expect_request("**/api/health"):
            page.evaluate("fetch('/api/health')")
        return len(asked)

    def answered(action: Any) -> None:
        """``action`` makes the page ask, and the answer is read (one ask at a time: a
        poll while the last is out asks nothing)."""
        with page.expect_event("requestfinished", lambda r: r.url.endswith("/api/social")):
            action()
        page.evaluate(NEXT_TASK)  # its promise has settled

    page.clock.install()
    answered(lambda: page.goto(url + "/"))
    answered(lambda: page.clock.run_for(20_500))
    # Hidden (another tab in front): no ask however long.
    page.evaluate(SEEN, "hidden")
    before = settled()
    page.clock.run_for(120_000)
    assert settled() == before
    # Seen again: it asks at once, then on its own time.
    answered(lambda: page.evaluate(SEEN, "visible"))
    # Signed out everywhere from another browser: the next ask gets a 401, and that is all.
    other = new_page(browser, **WIDE)
    other.goto(url + "/")
    assert api(other, "POST", "/api/session", {"name": name, "password": PASSWORD}) == 200
    assert api(other, "DELETE", "/api/sessions") in (200, 204)
    with page.expect_response("**/api/social") as got:
        page.clock.run_for(20_500)
    assert got.value.status == 401
    expect(page.locator("#sign-in-button")).to_be_visible()
    before = settled()
    page.clock.run_for(120_000)
    assert settled() == before
    assert page.js_errors == []
    for p in (page, other):
        p.context.close()
