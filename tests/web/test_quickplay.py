"""Quick play in the browser (issue 17): one button seats a player; a second player
with the same rules lands at the same table, watches until the hand ends (told so, in
their language), then plays the seat the bot gave up."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.server.helpers import choose
from tests.support.tables import ws_url
from tests.support.timing import margin_ms
from tests.web.a11y import assert_accessible
from tests.web.conftest import PHONE, new_page, post_json, seat_in, shot, shots
from tests.web.test_play import MY_TURN, _state, _take_turn

WAITING = "() => window.pitchTable?.waiting !== null && window.pitchTable?.waiting !== undefined"


def _quick(page: Any, url: str, name: str) -> str:
    page.goto(url + "/")
    page.fill("input[name=player-name]", name)
    page.select_option("select[name=quick-players]", "3")
    page.select_option("select[name=target]", "15")  # rules no other test quick-plays
    page.click("#quick-play")
    page.wait_for_function("() => location.pathname.startsWith('/t/')")
    return str(page.url.rstrip("/").split("/")[-1])


def test_quick_play_two_strangers_one_table(browser: Any, server_url: str) -> None:
    ann = new_page(browser)
    ann.goto(server_url + "/")
    expect(ann.locator("#quick-play")).to_be_visible()
    shot(ann, "lobby-quick-play-laptop-en")
    table = _quick(ann, server_url, "Ann")
    ann.wait_for_function(MY_TURN, timeout=margin_ms(30))
    st = _state(ann)
    if not st["game"]["bids"]:
        _take_turn(ann, st)  # Ann bids: the hand is under way, nobody can take a seat now
        shot(ann, "table-hint-laptop-en")  # the hint she followed, and why
    bob = new_page(browser, locale="ru-RU", **PHONE)
    bob.goto(server_url + "/")
    expect(bob.locator("#quick-play")).to_have_text("Играть сейчас")
    shot(bob, "lobby-quick-play-phone-ru")
    # No name: said next to the field, in his language, until he types one.
    bob.fill("input[name=player-name]", "  ")
    bob.click("#quick-play")
    bob.click("#quick-play")  # a second try: still one message
    expect(bob.locator("#player-name-error")).to_have_text("Введите своё имя.")
    expect(bob.locator("input[name=player-name]")).to_have_attribute("aria-invalid", "true")
    expect(bob.locator("input[name=player-name]")).to_be_focused()
    shot(bob, "lobby-blank-name-phone-ru", full=False)
    bob.fill("input[name=player-name]", "Б")
    expect(bob.locator("#player-name-error")).to_have_count(0)
    assert _quick(bob, server_url, "Боб") == table
    bob.wait_for_function(WAITING)
    seat = bob.evaluate("() => window.pitchTable.waiting")
    # Quick play found no game between hands: he is told he came in mid-hand.
    expect(bob.locator("#notices .arriving")).to_have_text(
        f"Вы пришли посреди раздачи: вы займёте место {seat + 1} вместе с его очками, "
        "когда она закончится; до тех пор за него играет бот."
    )
    expect(bob.locator("#status")).to_contain_text("Вы наблюдаете")
    shot(bob, "table-quick-waiting-phone-ru")
    shots(bob, "table-quick-mid-hand-ru")  # the notice at both sizes (ends at the phone's)
    expect(ann.locator("#notices .arriving")).to_contain_text(f"Боб takes seat {seat + 1}")
    # Ann plays the hand out; then the seat is Bob's and the bot has left it.
    for _ in range(80):
        if bob.evaluate("s => window.pitchTable.seat === s", seat):
            break
        try:  # Ann's turn, or (the hand over) Bob's seat: whichever comes
            ann.wait_for_function(MY_TURN, timeout=margin_ms(3))
        except PlaywrightTimeout:
            continue
        _take_turn(ann, _state(ann))
    bob.wait_for_function("s => window.pitchTable.seat === s", arg=seat)
    expect(bob.locator("#notices .arriving")).to_have_count(0)
    expect(bob.locator("#hand .card")).not_to_have_count(0)
    expect(ann.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("Боб")
    shot(bob, "table-quick-seated-phone-ru")
    # He sat down in a game under way: told so, and that the bot's score is his now
    # (issue 44 item 12), for the hand he starts with.
    expect(bob.locator("#notices .took-over")).to_have_text(
        f"Вы заняли место {seat + 1} бота в идущей игре: его очки переходят к вам."
    )
    shots(bob, "table-quick-took-over-ru")
    assert_accessible(bob, "the table with the took-over notice (ru)")
    token = bob.evaluate("t => localStorage.getItem('pitch.token.' + t)", table)
    bob_en = new_page(browser)  # the same seat, in English
    seat_in(bob_en, table, seat, token)
    bob_en.goto(f"{server_url}/t/{table}")
    expect(bob_en.locator("#notices .took-over")).to_have_text(
        f"You took over seat {seat + 1} from a bot in a game in progress: "
        "its score comes with the seat."
    )
    shots(bob_en, "table-quick-took-over-en")
    expect(ann.locator("#notices .took-over")).to_have_count(0)  # only the newcomer's
    assert ann.js_errors == [] and bob.js_errors == [] and bob_en.js_errors == []


def _between_hands(url: str, rules: dict[str, Any]) -> str:
    """A quick-play table of ``rules`` between hands: Cy plays it (over its socket) until
    a later hand is dealt with his the first bid, and closes it (a table nobody has
    open does not move). Its id."""
    table = post_json(url + "/api/quickplay", {"rules": rules})["table"]
    cy = post_json(f"{url}/api/tables/{table}/quickseat", {"name": "Cy"})

    async def play() -> None:
        import websockets

        rng = random.Random(1)
        async with websockets.connect(ws_url(url, table)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": cy["token"]}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), margin_ms(60) / 1000))
                g = m.get("game") if m["type"] == "state" else None
                if not (g and g["turn"] == cy["seat"] and g["legal"]):
                    continue
                if g["hands_played"] >= 1 and not g["bids"]:
                    return
                move = {"type": "action", "action": choose(g, rng), "seq": m["seq"]}
                await ws.send(json.dumps(move))

    # Playwright's sync API holds this thread's event loop: the socket gets its own.
    done = threading.Thread(target=lambda: asyncio.run(play()))
    done.start()
    done.join(margin_ms(120) / 1000)
    assert not done.is_alive(), "no second hand within the time"
    return str(table)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_play_now_says_it_chose_a_fresh_game_or_one_between_hands(
    browser: Any, server_url: str, lang: str
) -> None:
    """Issue 44 item 12: Play now prefers a game nobody has bid in yet, then one between
    hands, and says which it is (the mid-hand case: the test above)."""
    # Rules of its own for each language, which no other test quick-plays.
    target = {"en": 11, "ru": 21}[lang]
    fresh_rules = {"players": 5, "target": target}
    # Ann's table: nobody has opened it, so nothing is bid.
    fresh = post_json(server_url + "/api/quickplay", {"rules": fresh_rules})["table"]
    post_json(f"{server_url}/api/tables/{fresh}/quickseat", {"name": "Ann"})
    between = _between_hands(server_url, {"players": 2, "target": target})
    context = PHONE if lang == "ru" else {"viewport": {"width": 1280, "height": 800}}
    bob = new_page(browser, locale={"en": "en-US", "ru": "ru-RU"}[lang], **context)
    bob.goto(server_url + "/")
    bob.fill("input[name=player-name]", "Bob")
    bob.select_option("select[name=quick-players]", "5")
    bob.select_option("select[name=target]", str(target))
    bob.click("#quick-play")
    expect(bob).to_have_url(f"{server_url}/t/{fresh}")
    took = bob.locator("#notices .took-over")
    expect(took).to_have_text(
        {
            "en": "You joined a game that had just begun: seat 2 is yours from its first hand.",
            "ru": "Вы присоединились к только что начатой игре: место 2 ваше с первой раздачи.",
        }[lang]
    )
    shots(bob, f"table-quick-fresh-{lang}")
    assert_accessible(bob, f"the table with the fresh-game notice ({lang})")
    # Back in the lobby, two players: Cy's game between hands; the seat is Bob's at once.
    bob.goto(server_url + "/")
    bob.select_option("select[name=quick-players]", "2")
    bob.select_option("select[name=target]", str(target))
    bob.click("#quick-play")
    expect(bob).to_have_url(f"{server_url}/t/{between}")
    expect(took).to_have_text(
        {
            "en": "You took over seat 2 from a bot between hands: its score comes with the seat.",
            "ru": "Вы заняли место 2 бота между раздачами: его очки переходят к вам.",
        }[lang]
    )
    expect(bob.locator("#hand .card")).to_have_count(6)  # his own cards, no hand to watch
    shots(bob, f"table-quick-between-{lang}")
    assert_accessible(bob, f"the table with the between-hands notice ({lang})")
    assert bob.js_errors == []
    bob.context.close()
