"""The replay viewer, from an uploaded record file checked by the real server
(``POST /api/records/verify``): every assertion waits for the state it reads."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.engine import game_record, replay_record
from tests.web.conftest import DATA, PHONE, new_page, shot

RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _card_name(card: str) -> str:
    """The card's spoken name as the page gives it (cards.js cardName, English)."""
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def _open(page: Any, url: str, name: str) -> list[dict[str, Any]]:
    page.goto(url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / name))
    expect(page.locator(".replay-controls")).to_be_visible()
    expect(page.locator("#toast")).to_have_text(f"Opened {name}.")
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line]


def _side_names(rec: dict[str, Any], side: int | None) -> str:
    if side is None:
        return "nobody"
    seats = [
        s
        for s in range(rec["rules"]["players"])
        if (s % 2 if rec["rules"]["partnerships"] else s) == side
    ]
    return " & ".join(f"Seat {s + 1}" for s in seats)


def test_replay_steps_through_every_hand(page: Any, server_url: str) -> None:
    (rec,) = _open(page, server_url, "solo4.jsonl")
    rebuilt = game_record(replay_record(rec))  # what the server sends the viewer
    page.click("[data-action=next]")
    expect(page.locator(".event")).to_have_text(re.compile(r"bids|passes"))
    shot(page, "replay-auction")
    page.click("[data-action=first]")
    expect(page.locator(".step")).to_have_text(re.compile(r"^Move 1 of"))
    for i, hand in enumerate(rec["hands"]):
        if 4 < i < len(rec["hands"]) - 1:
            page.click("[data-action=next-hand]")  # the middle hands: just pass through
            expect(page.locator(".event")).to_have_text(re.compile(rf"^Hand {i + 2}: "))
            continue
        # From the deal of hand i, step to its result: the summary must match the record.
        page.click("[data-action=next-hand]")
        page.click("[data-action=prev]")
        expect(page.locator(".event")).to_have_text(f"Hand {i + 1} is over.")
        box = page.locator(".hand-summary")
        expect(box.locator("h2")).to_have_text(f"Hand {i + 1}")
        for key in ("high", "low", "jack", "game"):
            want = _side_names(rec, hand["awards"][key])
            pattern = rf"^{re.escape(want)}" + (r"|not dealt" if key == "jack" else "")
            expect(box.locator(f"[data-award={key}]")).to_have_text(re.compile(pattern))
            # The card that decided the point is the engine's, not worked out in the page.
            card = rebuilt["hands"][i]["award_cards"].get(key)
            shown = box.locator(f"[data-award={key}] .card-inline")
            if card is None:
                expect(shown).to_have_count(0)
            else:
                expect(shown).to_have_attribute("aria-label", _card_name(card))
        expect(box.locator(".made")).to_have_attribute("data-made", str(hand["made"]).lower())
        expect(box.locator(".score-line li b")).to_have_text([str(s) for s in hand["scores"]])
        if i == 0:
            shot(page, "replay-hand-summary")
        page.click("[data-action=next]")
        expect(page.locator(".event")).to_have_text(re.compile(rf"^Hand {i + 2}: |won the game"))
    page.click("[data-action=last]")
    expect(page.locator(".winner-line")).to_have_text(
        f"{_side_names(rec, rec['winner'])} won the game!"
    )
    expect(page.locator(".score-sheet tbody tr")).to_have_count(len(rec["hands"]))
    # The last hand's summary says why the game ended (R6.2), from the server's replay.
    expect(page.locator(".hand-summary .game-end")).to_have_attribute("data-end", "target")
    expect(page.locator(".hand-summary .game-end")).to_contain_text("reached the target")


def test_replay_keyboard_and_partnerships(page: Any, server_url: str) -> None:
    recs = _open(page, server_url, "partners.jsonl")
    assert len(recs) == 2
    expect(page.locator("select[aria-label=Game] option")).to_have_count(2)
    page.select_option("select[aria-label=Game]", "1")
    expect(page.locator("select[aria-label=Game]")).to_have_value("1")
    page.locator("[data-action=next]").focus()
    page.keyboard.press("End")
    expect(page.locator(".winner-line")).to_have_text(
        f"{_side_names(recs[1], recs[1]['winner'])} won the game!"
    )
    # The sides as the server's engine groups them (R1.2): seats 1+3 and 2+4.
    expect(page.locator(".score-sheet th.side")).to_have_text(
        ["Seat 1 & Seat 3", "Seat 2 & Seat 4"]
    )
    page.keyboard.press("Home")
    expect(page.locator(".step")).to_have_text(re.compile(r"^Move 1 of"))
    page.keyboard.press("ArrowRight")
    expect(page.locator(".step")).to_have_text(re.compile(r"^Move 2 of"))
    # Each card of the first trick is played by the seat the server says, clockwise
    # from the leader (R4.2).
    hand = recs[1]["hands"][0]
    for _ in hand["bids"]:
        page.keyboard.press("ArrowRight")
    trick = hand["tricks"][0]
    for k, card in enumerate(trick["cards"]):
        seat = (trick["leader"] + k) % 4
        expect(page.locator(".event")).to_have_text(f"Seat {seat + 1} plays {_card_name(card)}.")
        page.keyboard.press("ArrowRight")
    # Every card on screen is named for screen readers.
    cards = page.locator(".board .card, .replay-hand .card")
    expect(cards.first).to_be_visible()
    for unnamed in (":not([aria-label])", "[aria-label='']"):
        expect(page.locator(f".board .card{unnamed}, .replay-hand .card{unnamed}")).to_have_count(0)
    shot(page, "replay-partnerships")
    # The four-colour deck: clubs green, diamonds blue (settings, kept for next time).
    expect(page.locator(".card-svg.suit-c4")).to_have_count(0)
    page.click("#settings-button")
    page.check("dialog.settings input[name=fourColour]")
    page.click("dialog.settings button[type=submit]")
    expect(page.locator("dialog.settings")).to_have_count(0)
    # The board is drawn again after the dialog closes: wait for the new colours.
    expect(page.locator(".card-svg.suit-c4").first).to_be_attached()
    expect(page.locator(".card-svg.suit-d4").first).to_be_attached()
    expect(page.locator(".card-svg.suit-black, .card-svg.suit-red")).to_have_count(0)
    shot(page, "replay-four-colour")


def test_replay_refuses_a_bad_file(page: Any, server_url: str, tmp_path: Any) -> None:
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    bad = tmp_path / "notes.json"
    bad.write_text("hello, this is not JSON")
    page.set_input_files("#record-file", str(bad))
    expect(page.locator("#toast.show")).to_have_text("This file is not a Pitch game record.")
    expect(page.locator(".record-problem")).to_have_text("This file is not a Pitch game record.")
    expect(page.locator(".replay-controls")).to_have_count(0)


def test_replay_refuses_a_record_that_breaks_a_rule(
    page: Any, server_url: str, tmp_path: Any
) -> None:
    lines = (DATA / "partners.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    hand = rec["hands"][0]
    led = hand["tricks"][0]["cards"][0]
    hand["trump"] = next(s for s in "cdhs" if s != led[-1])  # not the suit led (R4.1)
    bad = tmp_path / "cheat.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(rec) + "\n")
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(bad))
    message = page.locator(".record-problem")
    # Where, then the checker's own words (the record's values as JSON writes them).
    head = "Game 2 breaks rule R4.1. Hand 1."
    expect(message).to_have_text(re.compile("^" + re.escape(head) + r"\s*Details: trump is \""))
    expect(message.locator("a.rule-link")).to_have_text("R4.1")
    expect(page.locator("#toast.show")).to_have_text(head)
    expect(page.locator(".replay-controls")).to_have_count(0)  # the good game 1 is not shown


def test_a_refused_record_speaks_the_readers_language(
    browser: Any, server_url: str, tmp_path: Any
) -> None:
    # A record with no rules, on a Russian phone: the message is Russian; only the
    # checker's detail is English, marked as such, and it says "null", as the file does,
    # not Python's "NoneType".
    rec = json.loads((DATA / "partners.jsonl").read_text().splitlines()[0])
    rec["rules"] = None
    bad = tmp_path / "norules.json"
    bad.write_text(json.dumps(rec))
    page = new_page(browser, locale="ru-RU", **PHONE)
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(bad))
    message = page.locator(".record-problem")
    expect(message).to_contain_text("Партия 1 не является правильной записью.")
    detail = message.locator(".problem-detail [lang=en]")
    expect(detail).to_have_text("rules must be a JSON object, not null.")
    expect(message.locator(".problem-detail")).to_contain_text("Подробности (на английском):")
    expect(page.locator("#toast.show")).to_have_text("Партия 1 не является правильной записью.")
    shot(page, "replay-refused-ru-phone", full=False)
    assert page.js_errors == []
    page.context.close()


def test_replay_survives_a_server_it_does_not_expect(
    page: Any, server_url: str, tmp_path: Any
) -> None:
    answers = [
        (500, "text/plain", "boom"),
        (429, "application/json", '{"detail": "too many records checked; wait a minute"}'),
        (413, "application/json", '{"detail": "too large"}'),
        (200, "text/html", "<img src=x onerror=window.__pwned=1>"),
        (200, "application/json", '{"records": "<img src=x>", "problems": []}'),
        (200, "application/json", '{"records": [], "problems": []}'),
    ]
    want = [
        "The server could not check this record (error 500).",
        "Too many records checked: wait a minute and try again.",
        "This file is too large to check.",
        "The server gave an answer the viewer does not understand.",
        "The server gave an answer the viewer does not understand.",
        "The server gave an answer the viewer does not understand.",
    ]
    queue = list(answers)

    def fake(route: Any) -> None:
        status, kind, body = queue.pop(0)
        route.fulfill(status=status, content_type=kind, body=body)

    page.route("**/api/records/verify", fake)
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    for text in want:
        page.set_input_files("#record-file", [])
        # Wait for the request itself: two answers in a row read alike, so the text
        # alone could be the one left from the answer before.
        with page.expect_request("**/api/records/verify"):
            page.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
        expect(page.locator(".record-problem")).to_have_text(text)
        expect(page.locator("#toast.show")).to_have_text(text)
        expect(page.locator(".replay-controls")).to_have_count(0)
    assert queue == []
    page.unroute("**/api/records/verify")
    page.route("**/api/records/verify", lambda route: route.abort())
    page.set_input_files("#record-file", [])
    page.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
    expect(page.locator(".record-problem")).to_have_text(
        "The server could not be reached to check this record."
    )
    assert page.evaluate("window.__pwned") is None


def test_replay_names_bots_in_the_readers_language(
    browser: Any, server_url: str, tmp_path: Any
) -> None:
    # A record names bots language-neutrally (live.py names); the viewer says them in the
    # reader's language and leaves a player's own name alone, even one shaped like a bot's.
    rec = json.loads((DATA / "solo4.jsonl").read_text().splitlines()[0])
    rec["players"] = ["Ann", "Bot 2 (club)", "Tess, then Bot 3 (master)", "Bot 4 (random), then Bo"]
    path = tmp_path / "bots.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    page = new_page(browser, locale="ru-RU", **PHONE)
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(path))
    expect(page.locator(".replay-controls")).to_be_visible()
    expect(page.locator("#replay-seat option")).to_have_text(
        ["Ann", "Бот 2 (Клубный игрок)", "Tess, затем Бот 3 (Мастер)", "Бот 4 (Новичок), затем Bo"]
    )
    page.click("[data-action=last]")
    # The felt and the score sheet's columns leave out the levels: long names are cut.
    expect(page.locator(".score-sheet thead th.side")).to_have_text(
        ["Ann", "Бот 2", "Tess, затем Бот 3", "Бот 4, затем Bo"]
    )
    expect(page.locator(".board .seat .name-text")).to_have_text(
        ["Ann", "Бот 2", "Tess, затем Бот 3", "Бот 4, затем Bo"]
    )
    # The scores above them name each seat in full.
    expect(page.locator(".score-line.current .who")).to_have_text(
        ["Ann", "Бот 2 (Клубный игрок)", "Tess, затем Бот 3 (Мастер)", "Бот 4 (Новичок), затем Bo"]
    )
    shot(page, "replay-bots-ru-phone", full=False)
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


OVERLAPS = """() => {
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const box = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
  const hands = box(".felt .open-hand"), trick = box(".felt .trick .card");
  return hands.some((h) => trick.some((c) => meet(h, c)));
}"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_open_hands_keep_out_of_the_trick(
    page: Any, server_url: str, tmp_path: Any, size: tuple[int, int]
) -> None:
    # The hand across the table wrapped to a second row that lay over the cards
    # played, so one could not tell which card the seat had just played.
    import random

    from pitch.bots import make_bot, play_game
    from pitch.engine import Rules

    rng = random.Random(5)
    bots = [make_bot("heuristic", rng=random.Random(i)) for i in range(2)]
    state = play_game(Rules(players=2), bots, rng).state
    path = tmp_path / "heads-up.json"
    path.write_text(json.dumps(game_record(state)))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(path))
    expect(page.locator(".replay-controls")).to_be_visible()
    for _ in range(14):  # the auction and the first tricks, every card on the felt
        page.click("[data-action=next]")
        assert not page.evaluate(OVERLAPS), page.locator(".step").text_content()
    shot(page, f"replay-open-hands-{size[0]}")
