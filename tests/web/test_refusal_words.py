"""What a new player meets when the server says no (issue 44 items 3, 9, 10): every
refusal reads as a sentence in the reader's language, never a response body; the Join
field opens only this site's invite links; a refused record names seats as the table
counts them and cards by their names."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.server.tables.lifecycle import _ALPHABET, new_table_id
from tests.web.conftest import DATA, PHONE, STATIC, new_page, post_json, seat_in, shot, shots

LOCALES = {"en": "en-US", "ru": "ru-RU"}
ZALGO = "Z\u0301\u0302\u0303\u0304\u0305algo"
# (name typed, the msgid said, its arguments): each refusal a player can provoke from the
# seat picker. "ﷺ" is one character that NFKC (the name rule) makes 18: two are too long
# though the field's maxlength lets them through.
NAMES: list[tuple[str, str, dict[str, str]]] = [
    ("\ufdfa\ufdfa", "A name may be at most {n} characters long.", {"n": "32"}),
    ("A\u200bnn", "A name may not hold invisible or text-direction characters.", {}),
    ("\u202eAnn", "A name may not hold invisible or text-direction characters.", {}),
    (ZALGO, "A name may not stack so many accents on one letter.", {}),
    (
        "\u0410nn",
        "A name may not mix two alphabets in one word (such as Latin and Cyrillic letters).",
        {},
    ),
    ("Bot 2", "That name is kept for the bots; choose another.", {}),
    ("ANN", "Someone at this table already goes by that name; choose another.", {}),
    # Past the request's own bound (FastAPI's 422, a list of fields): as an older
    # client or a page with its maxlength removed would send it.
    ("x" * 300, "The server did not understand the request; reload the page and try again.", {}),
]
BODY_TEXT = re.compile(r"[{}\[\]]|\bloc\b|\bmsg\b|Value error|detail")


def _catalog(lang: str) -> dict[str, Any]:
    messages: dict[str, Any] = json.loads(
        (STATIC / f"i18n/{lang}.json").read_text(encoding="utf-8")
    )["messages"]
    return messages


def _say(cat: dict[str, Any], msgid: str, **args: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: args[m.group(1)], cat[msgid])


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_refused_name_is_a_sentence(browser: Any, server_url: str, lang: str) -> None:
    cat = _catalog(lang)
    body = {"rules": {"players": 2}, "seats": [{"kind": "human"}] * 2}
    table = post_json(server_url + "/api/tables", body)["id"]
    post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ann"})
    page = new_page(browser, locale=LOCALES[lang])
    page.goto(f"{server_url}/t/{table}")
    field, seat = page.locator("#join-name"), page.locator("#open-seats [data-seat='1']")
    toast = page.locator("#toast.show.error")
    # Empty: said next to the field before anything is sent.
    field.fill("")
    seat.click()
    expect(page.locator(".field-error")).to_have_text(cat["Please enter your name."])
    for name, msgid, args in NAMES:
        page.evaluate("() => document.getElementById('join-name').removeAttribute('maxlength')")
        field.fill(name)
        seat.click()
        want = _say(cat, "Could not take the seat: {why}", why=_say(cat, msgid, **args))
        expect(toast).to_have_text(want)
        assert not BODY_TEXT.search(want), want
        if name == "\u0410nn":
            shots(page, f"refused-name-{lang}")
            page.set_viewport_size({"width": 1280, "height": 860})
        page.evaluate("() => document.getElementById('toast').classList.remove('show')")
    expect(page.locator("#open-seats [data-seat='1']")).to_be_visible()  # still open
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_refused_chat_line_is_a_sentence(browser: Any, server_url: str, lang: str) -> None:
    cat = _catalog(lang)
    body = {"rules": {"players": 2}, "options": {"turn_seconds": 600}}
    table = post_json(server_url + "/api/tables", body)["id"]
    tokens = [
        post_json(f"{server_url}/api/tables/{table}/seats/{s}", {"name": n})["token"]
        for s, n in enumerate(["Ada", "Bo"])
    ]
    page = new_page(browser, locale=LOCALES[lang], **PHONE)
    seat_in(page, table, 0, tokens[0])
    page.goto(f"{server_url}/t/{table}")
    expect(page.locator("#chat #chat-phrases button").first).to_be_visible()
    toast = page.locator("#toast.show.error")
    cases = [
        ("hi \u202eevil", "A chat message may not hold invisible or text-direction characters."),
        (ZALGO, "A chat message may not stack so many accents on one letter."),
    ]
    for text, msgid in cases:
        page.fill("#chat-text", text)
        page.press("#chat-text", "Enter")
        expect(toast).to_have_text(cat[msgid])
        if text == ZALGO:
            shots(page, f"refused-chat-{lang}")
        page.evaluate("() => document.getElementById('toast').classList.remove('show')")
    expect(page.locator("#chat-log li")).to_have_count(0)  # nothing was said
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()


def test_an_unknown_code_is_said_without_the_body(browser: Any, server_url: str) -> None:
    """An answer this client has no words for (a newer server's code, a proxy's page):
    a generic sentence with the status, never the answer's text."""
    page = new_page(browser, locale="ru-RU")
    page.goto(server_url + "/")
    page.wait_for_selector("body.ready")
    said = page.evaluate(
        """async () => {
          const { apiError } = await import('/js/core/messages.js');
          const { ApiError } = await import('/js/core/api.js');
          return [
            apiError(new ApiError(418, {code: 'brand_new', detail: [{loc: ['body'], msg: 'x'}]})),
            apiError(new ApiError(422, {detail: [{loc: ['body', 'name'], msg: 'Value error'}]})),
            apiError(new ApiError(500, {detail: '<b>{oops}</b>', code: '<b>'})),
          ];
        }"""
    )
    cat = _catalog("ru")
    generic = cat["Something went wrong ({code})."]
    assert said == [
        generic.replace("{code}", "brand_new"),
        cat["The server did not understand the request; reload the page and try again."],
        generic.replace("{code}", "500"),
    ]
    page.context.close()


def test_the_join_field_knows_the_servers_table_ids() -> None:
    """lobby.js spells out the alphabet pitch.server.tables.lifecycle makes table ids from."""
    assert f"[{_ALPHABET}]{{10}}" in (STATIC / "js/lobby/lobby.js").read_text()
    assert len(new_table_id()) == 10


def test_join_opens_only_this_sites_invites(browser: Any, server_url: str) -> None:
    table = post_json(server_url + "/api/tables", {"rules": {"players": 2}})["id"]
    for lang, ctx in (("en", {}), ("ru", PHONE)):
        cat = _catalog(lang)
        page = new_page(browser, locale=LOCALES[lang], **ctx)
        page.goto(server_url + "/")
        field = page.locator("input[name='invite']")
        toast = page.locator("#toast.show.error")
        for text in [
            "hello world",
            "https://evil.example/t/abc123",
            f"https://evil.example/t/{table}",
            f"{server_url}/t/{table}/../x",
            f"{server_url}/x/{table}",
            "abc123",
            "/t/" + table,
            f"javascript:location='/t/{table}'",
        ]:
            field.fill(text)
            field.press("Enter")
            expect(toast).to_have_text(cat["That is not an invite link."])
            assert page.url == server_url + "/", text
            if text == "hello world":
                shots(page, f"join-refused-{lang}")
                field.scroll_into_view_if_needed()
                shot(page, f"join-refused-{lang}-field", full=False)
            page.evaluate("() => document.getElementById('toast').classList.remove('show')")
        for text in [f"  {server_url}/t/{table}  ", table]:
            page.goto(server_url + "/")
            page.locator("input[name='invite']").fill(text)
            page.locator("input[name='invite']").press("Enter")
            expect(page).to_have_url(f"{server_url}/t/{table}")
            expect(page.locator("#join-name")).to_be_visible()
        assert page.js_errors == []
        page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_refused_record_names_seats_and_cards(
    browser: Any, server_url: str, tmp_path: Path, lang: str
) -> None:
    cat = _catalog(lang)
    good = json.loads((DATA / "solo4.jsonl").read_text().splitlines()[0])
    bad = copy.deepcopy(good)
    hand = bad["hands"][0]
    leader = hand["tricks"][0]["leader"]
    # The leader plays a card that the next seat was dealt: 2c, seat 2 of the table.
    hand["tricks"][0]["cards"][0] = hand["deal"][(leader + 1) % 4][0]
    assert leader == 0 and hand["tricks"][0]["cards"][0] == "2c"
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(bad) + "\n")
    page = new_page(browser, locale=LOCALES[lang])
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(path))
    problem = page.locator(".record-problem")
    card = _say(cat, "{rank} of clubs", rank="2")  # cards.js: a number rank is its digits
    reason = _say(cat, "{card} is not in your hand", card=card)
    why = _say(cat, "{reason} (rule {rule}).", reason=reason, rule="R4.2")
    head = _say(cat, "Game {n} breaks rule {rule}.", n="1", rule="R4.2")
    where = _say(cat, "Hand {hand}, trick {trick}.", hand="1", trick="1")
    expect(problem).to_contain_text(f"{head} {where}")
    expect(problem.locator(".problem-detail")).to_have_text(
        _say(cat, "Seat {n}: {reason}", n="1", reason=why)
    )
    expect(problem.locator("a.rule-link")).to_have_count(2)
    text = problem.inner_text()
    assert "seat 0" not in text.lower() and "2c" not in text and "legal:" not in text
    shots(page, f"record-refused-{lang}")
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()
