"""What the table says about a hand and about moves made for players: the end-of-hand
message gives the points the summary gives, scores stand apart from the side names, and
a turn-timer move or a stand-in bot playing for someone away is announced to the table.

The first two use a table whose socket this test plays the server for (exact states,
docs/server.md); the announcements use the real server with a 3 s timer."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.conftest import PHONE, STATIC, new_page, post_json, seat_page, shot

TABLE = "mocktable1"
RULES = {"players": 4, "partnerships": True, "target": 21, "low_to": "captor"}


def _seats() -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = [
        {"seat": 0, "kind": "human", "bot": None, "name": "Tess", "claimed": True}
    ]
    seats += [{"seat": s, "kind": "bot", "bot": "heuristic", "name": None} for s in (1, 2, 3)]
    seats[1]["name"] = "Rob"  # Rob resigned: his bot plays on, and the table says so
    for s in seats:
        s |= {"claimed": True, "connected": True, "substituted": False}
    return seats


def _game(**changes: Any) -> dict[str, Any]:
    game = {
        "phase": "play",
        "hand_number": 1,
        "turn": 3,
        "dealer": 0,
        "scores": [10, 7],
        "sides": [[0, 2], [1, 3]],
        "hand": ["2c"],
        "legal": [],
        "hand_sizes": [1, 1, 1, 0],
        "bids": [{"seat": 1, "bid": 0, "text": "pass"}, {"seat": 3, "bid": 1, "text": "bid 1"}],
        "high_bid": 1,
        "high_bidder": 3,
        "pitcher": 3,
        "contract": 1,
        "trump": "h",
        "trick": {"leader": 3, "cards": [{"seat": 3, "card": "Ah"}]},
        "tricks": [],
        "tricks_taken": [0, 0],
        "last_hand": None,
        "hands_played": 0,
        "winner": None,
    }
    return game | changes


# Bot 4 (seat 3, side 1) bid 1 and took High and Game: +2, not the bid's 1.
HAND = {
    "dealer": 0,
    "pitcher": 3,
    "bid": 1,
    "trump": "h",
    "thrown_in": False,
    "awards": {"high": 1, "low": 0, "jack": 0, "game": 1},
    "cards": {"high": "Ah", "low": "2h", "jack": "Jh"},
    "game_points": [9, 21],
    "won": [False, False],
    "made": True,
    "delta": [2, 2],
    "scores": [12, 9],
}


def _state(
    seq: int,
    game: dict[str, Any],
    status: str = "playing",
    seats: list[dict[str, Any]] | None = None,
) -> str:
    msg = {
        "type": "state",
        "table": TABLE,
        "seq": seq,
        "status": status,
        "seat": 0,
        "seats": _seats() if seats is None else seats,
        "rules": RULES,
        "last": {"seat": 3, "action": 0, "text": "Ah", "by": "bot"},
        "turn_deadline": None,
        "game": game,
    }
    return json.dumps(msg)


def _fake_table(page: Any, url: str) -> Any:
    """Open /t/TABLE with this test as its server; returns the socket route to push states
    with (the page first gets a mid-hand state)."""
    info = {"id": TABLE, "status": "playing", "rules": RULES, "options": {}, "seats": _seats()}
    info |= {"seq": 10, "winner": None, "invite_url": f"{url}/t/{TABLE}", "created_at": 0}
    page.route(f"**/api/tables/{TABLE}", lambda r: r.fulfill(json=info))
    page.route(f"**/api/tables/{TABLE}/hands", lambda r: r.fulfill(json=[HAND]))
    sockets: list[Any] = []

    page.sent = []  # what the page sent the "server"

    def on_socket(ws: Any) -> None:
        def on_message(text: str | bytes) -> None:
            page.sent.append(json.loads(text))
            if json.loads(text).get("type") == "auth":
                ws.send(
                    json.dumps({"type": "welcome", "table": TABLE, "seat": 0, "server_time": 0})
                )
                ws.send(_state(10, _game()))

        ws.on_message(on_message)
        sockets.append(ws)

    page.route_web_socket(f"**/ws/tables/{TABLE}", on_socket)
    page.context.add_init_script(f"localStorage.setItem('pitch.token.{TABLE}', 'tok')")
    page.goto(f"{url}/t/{TABLE}")
    expect(page.locator("#board .trick .card")).to_have_count(1)
    assert len(sockets) == 1
    return sockets[0]


def test_end_of_hand_message_gives_the_points_of_the_summary(browser: Any, server_url: str) -> None:
    page = new_page(browser)
    ws = _fake_table(page, server_url)
    # The hand ends: the next hand's auction starts, the state has the result.
    ws.send(_state(11, _game(phase="bid", hand_number=2, hands_played=1, last_hand=HAND,
                             scores=[12, 9], turn=1, dealer=1, bids=[], pitcher=None,
                             contract=None, trump=None, trick=None, hand=["2c"] * 6,
                             hand_sizes=[6] * 4)))  # fmt: skip
    made = page.locator(".hand-summary .made")
    expect(made).to_have_text("Bot 4 made the bid (+2).")
    expect(page.locator("#toast")).to_have_text("Bot 4 made the bid (+2).")
    expect(page.locator(".hand-summary .score-line li small")).to_have_text(["+2", "+2"])
    assert page.js_errors == []
    page.context.close()


def _until_sent(page: Any, done: Any) -> None:
    """Let the page's socket messages reach this test's "server" until ``done()``."""
    for _ in range(100):
        if done():
            return
        page.wait_for_timeout(50)
    raise AssertionError(page.sent)


def test_a_double_click_makes_one_move(browser: Any, server_url: str) -> None:
    # The second click of a double click used to reach the server for a state the first
    # had changed: refused as stale, shown as a red error.
    page = new_page(browser)
    ws = _fake_table(page, server_url)
    ws.send(_state(11, _game(phase="bid", turn=0, legal=["pass", "bid 2", "bid 3", "bid 4"],
            bids=[], pitcher=None, contract=None, trump=None, trick=None,
            hand=["2c", "5d", "9h", "Js", "Qs", "As"], hand_sizes=[6] * 4)))  # fmt: skip
    page.dblclick('#actions [data-action="bid 2"]')
    page.keyboard.press("3")  # and a key pressed at once: the same state still
    _until_sent(page, lambda: any(m.get("type") == "action" for m in page.sent))
    page.wait_for_timeout(300)  # time for a second one to arrive, were it sent
    expect(page.locator("#toast.show.error")).to_have_count(0)
    actions = [m for m in page.sent if m.get("type") == "action"]
    assert actions == [{"type": "action", "action": "bid 2", "seq": 11}], actions
    # A refusal lets the player try again (here the "server" refuses it as busy).
    ws.send(json.dumps({"type": "error", "code": "server_busy", "message": "busy"}))
    page.click('#actions [data-action="bid 3"]')
    _until_sent(page, lambda: [m.get("action") for m in page.sent][-1:] == ["bid 3"])
    assert page.js_errors == []
    page.context.close()


def test_past_hands_name_who_held_the_seat_then(browser: Any, server_url: str) -> None:
    # Ann took Bot 4's seat after hand 1 (quick play), Rob resigned to a bot after
    # bidding in hand 2 (the server's `since`): each hand names its pitcher as it was.
    page = new_page(browser)
    ws = _fake_table(page, server_url)
    seats = _seats()
    seats[3] |= {"kind": "human", "name": "Ann", "since": 1}
    seats[1] |= {"since": 2}
    hand2 = HAND | {"pitcher": 1, "dealer": 1, "awards": {"high": 1, "low": 1, "jack": 1,
                    "game": 1}, "delta": [0, 4], "scores": [12, 13]}  # fmt: skip
    hand3 = HAND | {"dealer": 2, "delta": [2, 2], "scores": [14, 15]}
    for n, (h, deal) in enumerate(((HAND, 1), (hand2, 2), (hand3, 3)), start=1):
        ws.send(_state(10 + n, _game(phase="bid", hand_number=n + 1, hands_played=n,
                last_hand=h, scores=h["scores"], turn=deal, dealer=deal, bids=[],
                pitcher=None, contract=None, trump=None, trick=None, hand=["2c"] * 6,
                hand_sizes=[6] * 4), seats=seats))  # fmt: skip
        who = ("Bot 4", "Rob", "Ann")[n - 1]
        expect(page.locator(".hand-summary .made")).to_have_text(
            re.compile(rf"^{who} made the bid")
        )
        expect(page.locator("#toast")).to_have_text(re.compile(rf"^{who} made the bid"))
    bids = page.locator(".score-sheet tbody td:first-of-type")
    expect(bids).to_have_text(["Bot 4: 1 hearts", "Rob: 1 hearts", "Ann: 1 hearts"])
    # The side names are the seats' today: the columns, and the hand's awards now.
    expect(page.locator(".score-sheet thead th").nth(3)).to_have_text("Bot 2 (for Rob) & Ann")
    expect(page.locator('.hand-summary dd[data-award="high"]')).to_have_text(
        re.compile(r"^Bot 2 \(for Rob\) & Ann\b")
    )
    shot(page, "score-sheet-past-holders-en-desktop")
    assert page.js_errors == []
    page.context.close()


def _apart(page: Any, item: Any) -> None:
    """The score is its own chip: a gap after the name, and a background of its own."""
    who = item.locator(".who").bounding_box()
    points = item.locator("b").bounding_box()
    assert points["x"] >= who["x"] + who["width"] + 3, (who, points)
    colours = item.locator("b").evaluate(
        "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b.parentElement)"
        ".backgroundColor]"
    )
    assert colours[0] != colours[1], colours


def test_scores_stand_apart_from_the_side_names(browser: Any, server_url: str) -> None:
    for lang, locale, name, size in (
        ("en", "en-US", "desktop", {"viewport": {"width": 1280, "height": 800}}),
        ("en", "en-US", "phone", PHONE),
        ("ru", "ru-RU", "desktop", {"viewport": {"width": 1280, "height": 800}}),
        ("ru", "ru-RU", "phone", PHONE),
    ):
        page = new_page(browser, locale=locale, **size)
        ws = _fake_table(page, server_url)
        bot3 = "Bot 3" if lang == "en" else "Бот 3"
        mine = page.locator('#scores li[data-side="0"]')
        expect(mine.locator(".who")).to_have_text(f"Tess & {bot3}")
        rob = "Bot 2 (for Rob)" if lang == "en" else "Бот 2 (за Rob)"
        expect(page.locator('#scores li[data-side="1"] .who')).to_have_text(f"{rob} & Bot 4"
            if lang == "en" else f"{rob} & Бот 4")  # fmt: skip
        expect(mine.locator("b")).to_have_text("10")
        # Read or copied, the text has a colon between name and score: never "Bot 3 10".
        expect(mine).to_have_text(re.compile(rf"^Tess & {bot3}:\s*10$"))
        _apart(page, mine)
        expect(page.locator("#board .seat .count")).not_to_have_count(0)  # cards in hand
        # The game is over: the final score line keeps them apart too.
        over = _game(phase="over", turn=None, hands_played=1, last_hand=HAND | {
            "scores": [21, 9], "won": [True, False]}, scores=[21, 9], winner=0, trick=None,
            hand=[], hand_sizes=[0] * 4)  # fmt: skip
        ws.send(_state(12, over, status="over"))
        final = page.locator("#game-over .final-score .side-score")
        expect(final).to_have_count(2)
        # The winner has the most points: no R6.2 note, and nothing in its place.
        expect(page.locator("#game-over")).not_to_contain_text("null")
        expect(page.locator("#why-winner")).to_have_count(0)
        # Empty hands show no bare "0" under the names (read as a score).
        expect(page.locator("#board .seat .count")).to_have_count(0)
        expect(final.first).to_have_text(re.compile(rf"^Tess & {bot3}:\s*21$"))
        _apart(page, final.first)
        shot(page, f"scores-apart-{lang}-{name}")
        assert page.js_errors == []
        page.context.close()


def test_timer_and_stand_in_moves_are_announced(browser: Any, server_url: str) -> None:
    # Two people who never move: the 3 s turn timer plays for each. Then Bob leaves;
    # after the 1 s grace the stand-in plays for him, and Ada is told so.
    body = {
        "rules": {"players": 2, "target": 11},
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "options": {"turn_seconds": 3, "grace_seconds": 1, "substitute": "random"},
    }
    table = post_json(server_url + "/api/tables", body)["id"]
    seat = f"{server_url}/api/tables/{table}/seats"
    ada_token = post_json(f"{seat}/0", {"name": "Ada"})["token"]
    bob_token = post_json(f"{seat}/1", {"name": "Bob"})["token"]
    desktop = {"viewport": {"width": 1280, "height": 800}}
    ada = seat_page(browser, server_url, table, ada_token, **desktop)
    bob = seat_page(browser, server_url, table, bob_token, locale="ru-RU", **PHONE)
    # Bob's move made by the timer: Ada reads it for Bob, Bob (in Russian) for himself.
    for_bob = re.compile(r"^Time ran out: a bot (played .+|chose (Pass|Bid \d)) for Bob\.$")
    expect(ada.locator("#notices .timer")).to_have_text(for_bob, timeout=margin_ms(20))
    shot(ada, "notice-timer-en-desktop", full=False)
    for_you = re.compile(r"^Время вышло: бот (сыграл .+|выбрал «.+») за вас\.$")
    expect(bob.locator("#notices .timer")).to_have_text(for_you, timeout=margin_ms(20))
    shot(bob, "notice-timer-ru-phone", full=False)
    assert bob.evaluate("() => [...window.pitchI18n.missing]") == []
    assert bob.js_errors == []
    bob.context.close()
    # Bob is away: the stand-in plays for him, in the notices and in his seat's label.
    expect(ada.locator("#notices .stand-in")).to_have_text(
        "A bot is playing for Bob while they are away.", timeout=margin_ms(20)
    )
    label = ada.locator('#board .seat[data-seat="1"]')
    expect(label.locator(".stand-in")).to_have_text("away: a bot plays")
    expect(label).to_have_attribute("aria-label", re.compile(r"away: a bot plays$"))
    expect(label.locator(".away:not(.stand-in)")).to_have_count(0)
    last = ada.evaluate("() => window.pitchTable.msg.last")
    assert last["by"] in ("substitute", "timer"), last
    shot(ada, "notice-stand-in-en-desktop", full=False)
    # In Russian it gives the player no gender (issue 44: it said "за него" of anyone).
    ada.select_option("#lang", "ru")
    expect(ada.locator("#notices .stand-in")).to_have_text(
        "Bob не в сети: пока за игрока играет бот."
    )
    # So is the timer's last move, when one is shown: no English left on the table.
    # (Read at once: the next timed move, every 3 s, would bring a new one in Russian.)
    assert ada.locator("#notices .timer", has_text="Time ran out").count() == 0
    shot(ada, "notice-stand-in-ru-desktop", full=False)
    ada.set_viewport_size({"width": 390, "height": 844})
    shot(ada, "notice-stand-in-ru-phone", full=False)
    assert ada.js_errors == []
    ada.context.close()


GOING_OUT = (
    "A side goes out only at the end of a hand it pitched (rule R6.2); until then a side"
    " past the target plays on."
)


@pytest.mark.parametrize(
    ("lang", "locale", "size"), [("en", "en-US", "phone"), ("ru", "ru-RU", "laptop")]
)
def test_a_side_past_the_target_and_a_winner_with_fewer_points_are_explained(
    browser: Any, server_url: str, lang: str, locale: str, size: str
) -> None:
    # Under R6.2 a side that passes the target without pitching plays on, and the game
    # can end with the winner behind: strangers read both as a scoring bug.
    messages = json.loads((STATIC / f"i18n/{lang}.json").read_text(encoding="utf-8"))
    going_out = messages["messages"][GOING_OUT]
    view = PHONE if size == "phone" else {"viewport": {"width": 1280, "height": 800}}
    page = new_page(browser, locale=locale, **view)
    ws = _fake_table(page, server_url)
    expect(page.locator("#past-target")).to_have_count(0)  # 10 and 7, to 21
    ws.send(_state(11, _game(scores=[23, 7])))
    note = page.locator("#past-target")
    expect(note).to_have_text(going_out)
    expect(note.locator("a.rule-link")).to_have_attribute("href", "/rules#R6.2")
    shot(page, f"past-target-{lang}-{size}")
    # Side 1 pitched the last hand and went out on 22, side 0 is on 23.
    over = _game(scores=[23, 22], winner=1, turn=None, legal=[], trick=None, hand=[])
    ws.send(_state(12, over, status="over"))
    expect(page.locator("#game-over .why-winner")).to_have_text(going_out)
    expect(page.locator("#past-target")).to_have_count(0)
    expect(page.locator(".side-panel")).not_to_contain_text("null")
    shot(page, f"why-winner-{lang}-{size}")
    assert page.js_errors == []
    page.context.close()
