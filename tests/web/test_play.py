"""Playing against the real server: a whole game with bots by clicking, two people at
one table through an invite link (one on a phone), and refused moves explained."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.engine import verify_record
from tests.support.timing import margin_ms
from tests.web.conftest import PHONE, click_action, new_page, play_safe, post_json, shot

MY_TURN = """() => { const S = window.pitchTable; const g = S && S.msg && S.msg.game;
  return !!g && (g.winner !== null || (g.turn === S.seat && g.legal.length > 0)); }"""

AT_SEQ = "n => window.pitchTable.msg?.seq >= n"
AFTER_SEQ = "n => window.pitchTable.msg.seq > n"


def _state(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => { const S = window.pitchTable;
        return {seq: S.msg.seq, seat: S.seat, game: S.msg.game}; }"""
    )


def _create(page: Any, url: str, *, players: int, seats: dict[int, str], pace: str = "0") -> str:
    page.goto(url + "/")
    page.wait_for_selector("#create-table")
    page.fill("input[name=player-name]", "Ada")
    page.select_option("select[name=players]", str(players))
    for seat, kind in seats.items():
        page.select_option(f"select[name=seat-{seat}-kind]", kind)
    page.select_option("select[name=bot-delay]", pace)
    shot(page, "lobby")
    page.click("#create-table")
    page.wait_for_function("() => location.pathname.startsWith('/t/')")
    return str(page.url.rstrip("/").split("/")[-1])


def _take_turn(page: Any, st: dict[str, Any]) -> None:
    """Ask the server for a hint and do what it says: click its bid button or its card.
    The hint names the move and says why, in the page's language."""
    g = st["game"]
    page.click("#hint-button")
    page.wait_for_function("() => window.pitchTable.hint?.source === 'server'")
    action = page.evaluate("() => window.pitchTable.hint.action")
    where = "#actions" if g["phase"] == "bid" else "#hand"
    attr = "action" if g["phase"] == "bid" else "card"
    expect(page.locator(f'{where} .hinted[data-{attr}="{action}"]')).to_have_count(1)
    assert page.evaluate("() => window.pitchTable.hint.bot") == "heuristic"  # conftest
    why = page.evaluate("() => window.pitchTable.hint.why")
    assert why and "{" not in why
    expect(page.locator("#hint")).to_contain_text(why)
    assert action in g["legal"]
    click_action(page, g["phase"], action)
    page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=st["seq"])


def _refusal(page: Any, st: dict[str, Any]) -> str | None:
    """Click a card the rules forbid (R4.3) and return the message shown, if any."""
    g = st["game"]
    if g["phase"] != "play":
        return None
    bad = [c for c in g["hand"] if c not in g["legal"]]
    if not bad:
        return None
    page.click(f'#hand [data-card="{bad[0]}"]')
    toast = page.locator("#toast.show.error")
    expect(toast).to_contain_text("(rule ")
    assert _state(page)["seq"] == st["seq"]  # nothing was sent
    return str(toast.text_content())


def test_whole_game_with_bots(browser: Any, server_url: str) -> None:
    page = new_page(browser)
    # Three players (two bots) keeps the game short enough for the suite.
    table = _create(page, server_url, players=3, seats={1: "bot", 2: "bot"})
    refused = None
    for _ in range(400):
        page.wait_for_function(MY_TURN, timeout=margin_ms(30))
        st = _state(page)
        if st["game"]["winner"] is not None:
            break
        if refused is None:
            refused = _refusal(page, st)
            if refused:
                shot(page, "table-refused-move")
        _take_turn(page, st)
    else:
        raise AssertionError("the game did not end within 400 moves")
    # Deals come from the OS's random source, so a game may give Ada no card to refuse
    # (CI drew one); test_refusals covers refusals for sure. When there was one, its
    # message names the rule.
    assert refused is None or "(rule R4.3)" in refused
    expect(page.locator("#game-over")).to_be_visible()
    shot(page, "game-over")
    with urllib.request.urlopen(f"{server_url}/api/tables/{table}/record") as r:
        rec = json.load(r)
    # The client's hand summaries agree with the record, hand by hand.
    seen = page.evaluate("() => window.pitchTable.results")
    assert len(seen) == len(rec["hands"])
    for n, hand in enumerate(rec["hands"], 1):
        got = seen[str(n)]
        assert got["awards"] == hand["awards"], n
        assert got["delta"] == hand["delta"] and got["scores"] == hand["scores"], n
        assert got["made"] == hand["made"] and got["game_points"] == hand["game_points"], n
    last = rec["hands"][-1]
    names = ["Ada", "Bot 2", "Bot 3"]
    expect(page.locator("#scores .who")).to_have_text(names)
    summary = page.locator(".hand-summary")
    for key in ("high", "low", "jack", "game"):
        side = last["awards"][key]
        want = "^" + re.escape("nobody" if side is None else names[side])
        if key == "jack" and side is None:
            want = "^(nobody|not dealt$)"
        expect(summary.locator(f"[data-award={key}]")).to_have_text(re.compile(want))
    expect(page.locator("#scores li b")).to_have_text([str(s) for s in last["scores"]])
    expect(page.locator("#game-over .winner-line")).to_contain_text(names[rec["winner"]])
    expect(page.locator(".score-sheet tbody tr")).to_have_count(len(rec["hands"]))
    with urllib.request.urlopen(f"{server_url}/api/tables/{table}/hands") as r:
        assert [h["scores"] for h in json.load(r)] == [h["scores"] for h in rec["hands"]]
    page.reload()  # the score sheet comes back whole
    expect(page.locator("#game-over")).to_be_visible()
    expect(page.locator(".score-sheet tbody tr")).to_have_count(len(rec["hands"]))
    link = page.locator("#download-record")
    expect(link).to_have_attribute("href", f"/api/tables/{table}/record")
    page.click("#watch-replay")
    expect(page.locator(".replay-controls")).to_be_visible()
    page.click("[data-action=last]")
    # The record names a bot language-neutrally ("Bot 2 (club)"); the viewer says its level.
    winner = rec["players"][rec["winner"]].replace("(club)", "(Club player)")
    expect(page.locator(".winner-line").first).to_contain_text(winner)
    assert page.js_errors == []
    page.context.close()


def test_two_people_by_invite_link(browser: Any, server_url: str) -> None:
    host = new_page(browser)
    _create(host, server_url, players=4, seats={1: "human", 2: "bot", 3: "bot"})
    host.wait_for_selector("#invite-link")
    link = host.input_value("#invite-link")
    shot(host, "waiting-for-friend")
    # The friend is Norwegian and on a phone.
    friend = new_page(browser, locale="nb-NO", **PHONE)
    friend.goto(link)
    friend.wait_for_selector("#open-seats")
    friend.fill("#join-name", "Bo")
    friend.click("#open-seats [data-seat='1']")
    expect(friend.locator("#hand")).to_be_visible()
    expect(host.locator("#hand")).to_be_visible()
    expect(friend.locator("html")).to_have_attribute("lang", "nb")
    shot(friend, "phone-table", full=False)
    # Usable on a phone: nothing wider than the screen, the whole hand on screen.
    assert friend.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    boxes = friend.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right])"
    )
    assert boxes and all(a >= 0 and b <= 390 for a, b in boxes), boxes
    # Both play the first hand to its end; each sees the same result.
    players = {0: host, 1: friend}
    for _ in range(60):
        st = _state(host)  # the host's page says whose turn it is
        g = st["game"]
        if g["hands_played"] >= 1:
            break
        if g["turn"] in players:
            page = players[g["turn"]]
            page.wait_for_function(AT_SEQ, arg=st["seq"])
            _take_turn(page, _state(page))
        # Every page catches up with the move (a bot's or a person's) before the next.
        for p in players.values():
            p.wait_for_function(AFTER_SEQ, arg=st["seq"])
    else:
        raise AssertionError("the first hand did not end within 60 moves")
    expect(host.locator(".hand-summary")).to_be_visible()
    expect(friend.locator(".hand-summary")).to_be_visible()
    # Both show the first hand's scores (the next hand scores nothing until it ends).
    first = [str(s) for s in _state(host)["game"]["last_hand"]["scores"]]
    expect(host.locator("#scores li b")).to_have_text(first)
    expect(friend.locator("#scores li b")).to_have_text(first)
    expect(host.locator("#scores .who").nth(0)).to_have_text("Ada")
    expect(host.locator("#scores .who").nth(1)).to_have_text("Bo")
    assert friend.evaluate("() => [...window.pitchI18n.missing]") == []
    shot(friend, "phone-hand-summary")
    for p in players.values():
        assert p.js_errors == []
        p.context.close()


def test_pitching_by_dropping_a_card(browser: Any, server_url: str) -> None:
    # R3.4: a bid of 4 shown by laying the card in the middle; it is the opening lead.
    page = new_page(browser)
    _create(page, server_url, players=2, seats={1: "bot"})
    for _ in range(80):
        page.wait_for_function(MY_TURN, timeout=margin_ms(30))
        st = _state(page)
        g = st["game"]
        if g["phase"] == "bid" and "bid 4" in g["legal"]:
            card = g["hand"][0]
            page.drag_and_drop(f'#hand [data-card="{card}"]', "#board .middle")
            page.wait_for_function(
                "c => { const g = window.pitchTable.msg.game;"
                " return (g.trick && g.trick.cards.some(x => x.card === c))"
                " || g.tricks.some(t => t.cards.some(x => x.card === c)); }",
                arg=card,
            )
            st = _state(page)
            assert st["game"]["pitcher"] == 0 and st["game"]["contract"] == 4
            first = (st["game"]["tricks"] or [st["game"]["trick"]])[0]["cards"][0]
            assert first == {"seat": 0, "card": card}
            shot(page, "table-pitched")
            break
        if g["winner"] is not None:
            raise AssertionError("the game ended before a bid of 4 was open to seat 0")
        _take_turn(page, st)
    else:
        raise AssertionError("no chance to pitch in 80 moves")
    assert page.js_errors == []
    page.context.close()


def test_keyboard_play(browser: Any, server_url: str) -> None:
    # Bid and play a whole hand with the keyboard only; focus survives every redraw.
    page = new_page(browser)
    _create(page, server_url, players=2, seats={1: "bot"})
    for _ in range(30):
        page.wait_for_function(MY_TURN, timeout=margin_ms(30))
        st = _state(page)
        g = st["game"]
        if g["hands_played"] >= 1 or g["winner"] is not None:
            break
        if g["phase"] == "bid":
            key = "p" if "pass" in g["legal"] else g["legal"][0].split()[1]
            page.locator("body").press(key)
        else:
            page.locator("#hand .card").first.focus()
            cards = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
            card = next(c for c in cards if c in g["legal"])
            for _ in range(cards.index(card)):
                page.keyboard.press("ArrowRight")
            expect(page.locator(f'#hand [data-card="{card}"]')).to_be_focused()
            page.keyboard.press("Enter")
        page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=st["seq"])
    assert _state(page)["game"]["hands_played"] >= 1
    page.locator("body").press("l")
    expect(page.locator("dialog.last-trick")).to_be_visible()
    shot(page, "last-trick")
    page.keyboard.press("Escape")
    # Closing re-renders asynchronously: wait for the dialog to go rather than race it.
    expect(page.locator("dialog.last-trick")).to_have_count(0)
    assert page.js_errors == []
    page.context.close()


def test_turn_timer_chosen_in_the_lobby_counts_down_and_stands_in(
    browser: Any, server_url: str
) -> None:
    # The lobby sets the table's turn timer, absence rule and stand-in bot; the table
    # shows the countdown; when it runs out the stand-in moves for the seat (by "timer").
    page = new_page(browser)
    page.goto(server_url + "/")
    page.wait_for_selector("#create-table")
    substitute = page.locator("select[name=substitute]")
    # By default a bot plays for a player gone a minute (a closed tab freezes no game).
    expect(page.locator("select[name=grace-seconds]")).to_have_value("60")
    expect(substitute).to_be_enabled()
    page.select_option("select[name=grace-seconds]", "0")
    expect(substitute).to_be_disabled()  # nothing to stand in for
    page.fill("input[name=player-name]", "Ada")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bot-delay]", "1.2")  # the timer's move stays on screen
    page.select_option("select[name=turn-seconds]", "15")
    page.select_option("select[name=grace-seconds]", "60")
    expect(substitute).to_be_enabled()
    page.select_option("select[name=substitute]", "beginner")
    shot(page, "lobby-timer")
    page.click("#create-table")
    page.wait_for_function("() => location.pathname.startsWith('/t/')")
    table = page.url.rstrip("/").split("/")[-1]
    with urllib.request.urlopen(f"{server_url}/api/tables/{table}") as r:
        options = json.load(r)["options"]
    assert options["turn_seconds"] == 15 and options["grace_seconds"] == 60
    assert options["substitute"] == "random"  # "beginner" is the random bot
    page.wait_for_function(MY_TURN, timeout=margin_ms(30))
    clock = page.locator("#turn-clock")
    expect(clock).to_have_text(re.compile(r"^0:(0[1-9]|1[0-5])$"))
    first = int((clock.text_content() or "")[2:])
    expect(clock).to_have_attribute("aria-label", re.compile("Seconds left for your move"))
    seq = _state(page)["seq"]
    # It counts down (waiting for the next second, never sleeping a fixed time).
    expect(clock).not_to_have_text(f"0:{first:02d}")
    later = int((clock.text_content() or "")[2:])
    assert later < first, (first, later)
    shot(page, "turn-clock")
    # Let the timer run out: the stand-in moves for this seat, which keeps its player.
    page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=seq, timeout=margin_ms(25))
    last = page.evaluate("() => window.pitchTable.msg.last")
    assert last["seat"] == 0 and last["by"] == "timer", last
    assert page.evaluate("() => window.pitchTable.msg.seq") == seq + 1
    assert page.evaluate("() => window.pitchTable.seat") == 0
    assert page.js_errors == []
    page.context.close()


def seated_page(browser: Any, server_url: str, body: dict[str, Any], **context: Any) -> Any:
    """A table made through the API (rules and options the lobby does not offer), with
    Ada in seat 0 of the page returned: the seat's token is put where the client keeps
    it, as if she had claimed the seat in this browser."""
    table = post_json(server_url + "/api/tables", body)["id"]
    tok = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    page = new_page(browser, **context)
    page.context.add_init_script(f"localStorage.setItem('pitch.token.{table}', '{tok}')")
    page.goto(f"{server_url}/t/{table}")
    page.table_id = table
    return page


def play_to_the_end(page: Any, moves: int = 200) -> None:
    """Play seat 0's turns until the game is over: pass when it may, else the first
    legal bid or card."""
    for _ in range(moves):
        page.wait_for_function(MY_TURN, timeout=margin_ms(30))
        st = _state(page)
        g = st["game"]
        if g["winner"] is not None:
            return
        play_safe(page, g)
        page.wait_for_function(AFTER_SEQ, arg=st["seq"])
    raise AssertionError(f"the game did not end within {moves} moves")


# To 1: the first contract made ends it (R6.2). Not against `random`, which bids at
# random and is set again and again: once both sides were deep below 0, a game once
# took more than 200 of our moves.
QUICK_GAME = {
    "rules": {"players": 2, "target": 1},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    "options": {"bot_delay": 0},
}


def test_download_the_record(browser: Any, server_url: str, tmp_path: Path) -> None:
    # The link is the browser's (the app's router used to take it over and show the
    # lobby): a real download of a record that the engine's verifier accepts.
    page = seated_page(browser, server_url, QUICK_GAME)
    play_to_the_end(page)
    link = page.locator("#download-record")
    expect(link).to_be_visible()
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"pitch-{page.table_id}.json"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert verify_record(record) is None
    assert record["players"][0] == "Ada" and record["winner"] is not None
    # The page stays on the table (no lobby), and in-app links still route in place.
    expect(page.locator("#game-over")).to_be_visible()
    assert page.url.endswith(f"/t/{page.table_id}")
    page.evaluate("() => { window.notReloaded = true; }")
    page.click("#game-over a[href='/']")
    expect(page.locator("#create-table")).to_be_visible()
    assert page.evaluate("() => window.notReloaded") is True
    assert page.js_errors == []
    page.context.close()


def test_the_host_waiting_for_a_friend_can_leave(browser: Any, server_url: str) -> None:
    # The waiting screen is no dead end: it marks the host's own seat, leads back to the
    # lobby, and Leave gives the seat up: a waiting table where nobody holds a seat any
    # more is abandoned, deleted (server seats.py).
    host = new_page(browser, locale="ru-RU", **PHONE)
    table = _create(host, server_url, players=2, seats={1: "human"})
    expect(host.locator("#waiting .you-tag")).to_have_text("Вы")
    expect(host.locator("#waiting a[href='/']")).to_be_visible()
    shot(host, "waiting-for-friend-ru-phone", full=False)
    host.on("dialog", lambda d: d.accept())
    host.click("#leave-table")
    host.wait_for_function("() => location.pathname === '/'")
    expect(host.locator("#create-table")).to_be_visible()
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(f"{server_url}/api/tables/{table}")
    assert gone.value.code == 404
    assert host.js_errors == []
    host.context.close()
