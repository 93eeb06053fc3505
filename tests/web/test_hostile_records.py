"""Hostile game records in the replay viewer, with both deck settings (issue 16 item 6).

A record is data from anyone: its trump, cards, rules, names and table fields may carry
markup or script. The viewer must never run it: it builds no HTML from data, sends every
record to ``POST /api/records/verify`` and shows only what the engine rebuilt, refuses a
file whose game breaks a rule (naming the rule), validates even the server's answer, and
shows names as literal text. Every check waits for the state it asserts (``expect``).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.server.records.check import checked_record
from tests.web.conftest import DATA, new_page, shot

X_IMG = '"><img src=x onerror=window.__pwned=1>'
X_ALERT = "'><img src=x onerror=alert(document.domain)>"
X_SCRIPT = "<script>window.__pwned=1</script>"
X_JS = "javascript:window.__pwned=1"
X_SVG = '<svg onload="window.__pwned=1"><circle r=9 /></svg>'
HOSTILE_NAMES = [X_IMG, X_SCRIPT, X_JS, X_SVG]

# Records every element that could run script (or load something) as it is added, so a
# node that was inserted and removed again is caught too; the page's own module script
# (index.html) is the one allowed.
WATCH = """
window.__inserted = [];
const RISKY = "img, script, iframe, object, embed, foreignObject, [onerror], [onload], "
  + "[href^='javascript' i]";
new MutationObserver((ms) => {
  for (const m of ms) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    const found = [...(n.matches(RISKY) ? [n] : []), ...n.querySelectorAll(RISKY)];
    for (const el of found) {
      if (el.tagName === "SCRIPT" && el.getAttribute("src") === "/js/app.js") continue;
      window.__inserted.push(el.outerHTML.slice(0, 120));
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def _settings(deck: str) -> str:
    four = "true" if deck == "four" else "false"
    return (
        "localStorage.setItem('pitch.settings', JSON.stringify("
        f"{{speed: 'off', sound: false, fourColour: {four}}}))"
    )


def _records(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line]


@pytest.fixture(params=["two", "four"])
def deck(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def viewer(browser: Any, deck: str) -> Iterator[Any]:
    """A page with the deck setting, watching for inserted script, dialogs and errors."""
    page = new_page(browser)
    page.context.add_init_script(_settings(deck))
    page.context.add_init_script(WATCH)
    dialogs: list[str] = []

    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.dialogs = dialogs
    yield page
    assert page.js_errors == [], page.js_errors
    page.context.close()


def _goto(page: Any, url: str, deck: str) -> None:
    page.goto(url + "/#replay")
    page.wait_for_selector("body.ready")
    expect(page.locator("html")).to_have_attribute("data-deck", deck)


def _no_script_ran(page: Any) -> None:
    expect(page.locator("main img, main script, main iframe, main object")).to_have_count(0)
    expect(page.locator("img[src=x]")).to_have_count(0)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("window.__inserted") == []
    assert page.dialogs == []


def _upload(page: Any, tmp_path: Path, records: list[dict[str, Any]]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    page.set_input_files("#record-file", [])
    page.set_input_files("#record-file", str(path))


def _trump(r: dict[str, Any]) -> None:
    r["hands"][0]["trump"] = X_IMG


def _deal_card(r: dict[str, Any]) -> None:
    r["hands"][0]["deal"][0][0] = X_ALERT


def _trick_card(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"][0]["cards"][0] = X_SCRIPT


def _award(r: dict[str, Any]) -> None:
    r["hands"][0]["awards"]["high"] = X_SVG


def _rules(r: dict[str, Any]) -> None:
    r["rules"]["players"] = X_JS


def _sides(r: dict[str, Any]) -> None:
    r["sides"] = [[0, X_IMG], [1], [2], [3]]


def _sides_missing(r: dict[str, Any]) -> None:
    del r["sides"]


def _side_twice(r: dict[str, Any]) -> None:
    r["sides"] = [[0, 1], [1], [2], [3]]  # seat 1 on two sides


def _seats(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"][0]["seats"][1] = X_SCRIPT


def _seats_missing(r: dict[str, Any]) -> None:
    del r["hands"][0]["tricks"][0]["seats"]


def _seats_not_from_leader(r: dict[str, Any]) -> None:
    seats = r["hands"][0]["tricks"][0]["seats"]
    seats.append(seats.pop(0))


# (how the second game is spoiled, the message shown, the hostile text it quotes)
CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "trump": (_trump, r"^Game 2 breaks rule R4\.1\. ", X_IMG),
    "deal-card": (_deal_card, r"^Game 2 breaks rule R2\.1\. ", X_ALERT),
    "trick-card": (_trick_card, r"^Game 2 breaks rule R2\.1\. ", X_SCRIPT),
    "award": (_award, r"^Game 2 breaks rule R5\.1\. ", X_SVG),
    "rules": (_rules, r"^Game 2 is not a valid record\.", X_JS),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_file_is_refused_naming_the_rule(
    viewer: Any, server_url: str, deck: str, tmp_path: Path, case: str
) -> None:
    spoil, message, quoted = CASES[case]
    good = _records("solo4.jsonl")[0]
    bad = copy.deepcopy(good)
    spoil(bad)
    _goto(viewer, server_url, deck)
    _upload(viewer, tmp_path, [good, bad])
    problem = viewer.locator(".record-problem")
    expect(problem).to_have_text(re.compile(message))
    # The server's message, shown as text: the value as the file has it, or as JSON
    # quotes it (the checker names a record's values in JSON).
    as_json = json.dumps(quoted)[1:-1]
    expect(problem).to_contain_text(re.compile(f"{re.escape(quoted)}|{re.escape(as_json)}"))
    expect(viewer.locator("#toast.show")).to_have_text(re.compile(message))
    expect(viewer.locator(".replay-controls")).to_have_count(0)  # game 1 is not shown either
    _no_script_ran(viewer)
    if case == "trump":
        shot(viewer, f"replay-refused-{deck}")


def test_hostile_names_show_as_literal_text(
    viewer: Any, server_url: str, deck: str, tmp_path: Path
) -> None:
    rec = _records("solo4.jsonl")[0]
    rec["players"] = HOSTILE_NAMES
    rec["table"] = X_IMG
    _goto(viewer, server_url, deck)
    _upload(viewer, tmp_path, [rec])
    expect(viewer.locator(".replay-controls")).to_be_visible()
    expect(viewer.locator(".seat .name-text")).to_have_text(HOSTILE_NAMES)
    expect(viewer.locator("#replay-seat option")).to_have_text(HOSTILE_NAMES)
    expect(viewer.locator(".event")).to_have_text(f"Hand 1: {X_SVG} deals.")
    # The cards are drawn in the chosen deck's colours.
    colours = ".suit-c4, .suit-d4, .suit-h4, .suit-s4"
    if deck == "two":
        colours = ".suit-red, .suit-black"
    expect(viewer.locator(f".card-svg:is({colours})").first).to_be_attached()
    other = ".suit-red, .suit-black" if deck == "four" else ".suit-c4, .suit-d4"
    expect(viewer.locator(f".card-svg:is({other})")).to_have_count(0)
    # A hand's result and the score sheet name the players too.
    viewer.click("[data-action=next-hand]")
    viewer.click("[data-action=prev]")
    expect(viewer.locator(".event")).to_have_text("Hand 1 is over.")
    expect(viewer.locator(".hand-summary .contract-line")).to_contain_text(f"{X_IMG} bid 4")
    expect(viewer.locator(".score-sheet thead th")).to_have_text(["#", "Bid", *HOSTILE_NAMES])
    viewer.click("[data-action=last]")
    expect(viewer.locator(".winner-line")).to_have_text(
        f"{HOSTILE_NAMES[rec['winner']]} won the game!"
    )
    shot(viewer, f"replay-hostile-names-{deck}")
    _no_script_ran(viewer)


def test_the_tables_record_is_checked_too(viewer: Any, server_url: str, deck: str) -> None:
    # The end-of-game screen hands the table's record to the viewer (history state).
    rec = _records("partners.jsonl")[0]
    rec["hands"][0]["trump"] = X_IMG
    _goto(viewer, server_url, deck)
    viewer.evaluate("r => window.pitchNavigate('/#replay', {records: [r]})", rec)
    expect(viewer.locator(".record-problem")).to_have_text(
        re.compile(r"^Game 1 breaks rule R4\.1\. ")
    )
    expect(viewer.locator(".replay-controls")).to_have_count(0)
    _no_script_ran(viewer)


def test_hostile_answers_from_the_server_are_refused(
    viewer: Any, server_url: str, deck: str
) -> None:
    # A server (or something between) that answers with what the engine never writes:
    # the viewer validates the answer as well and shows nothing of it. Each is spoilt
    # from the answer the server gives (the engine's record, with the sides and each
    # card's seat), which the viewer shows.
    rec = checked_record(_records("solo4.jsonl")[0])
    spoilt = []
    spoils = (_trump, _deal_card, _trick_card, _award, _rules, _sides, _sides_missing)
    spoils += (_side_twice, _seats, _seats_missing, _seats_not_from_leader)
    for spoil in spoils:
        r = copy.deepcopy(rec)
        spoil(r)
        spoilt.append({"records": [r], "problems": []})
    problem = {"game": 0, "hand": 0, "trick": None, "rule": X_IMG, "message": X_SCRIPT}
    answers = [*spoilt, {"records": [rec], "problems": []}, {"records": [], "problems": [problem]}]
    queue = list(answers)

    def fake(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(queue.pop(0)))

    viewer.route("**/api/records/verify", fake)
    _goto(viewer, server_url, deck)
    for _ in spoilt:
        viewer.set_input_files("#record-file", [])
        # Wait for the request itself: the answers read alike, so the text alone could
        # be the one left from the answer before.
        with viewer.expect_request("**/api/records/verify"):
            viewer.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
        expect(viewer.locator(".record-problem")).to_have_text(
            "The server gave an answer the viewer does not understand."
        )
        expect(viewer.locator(".replay-controls")).to_have_count(0)
    # The answer they were spoilt from is shown.
    viewer.set_input_files("#record-file", [])
    viewer.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
    expect(viewer.locator(".replay-controls")).to_have_count(1)
    # A problem with a rule id that is no rule: shown as a format error, as text.
    viewer.set_input_files("#record-file", [])
    viewer.set_input_files("#record-file", str(DATA / "solo4.jsonl"))
    expect(viewer.locator(".record-problem")).to_have_text(
        re.compile(
            r"^Game 1 is not a valid record\. Hand 1\.\s*Details: " + re.escape(X_SCRIPT) + "$"
        )
    )
    assert queue == []
    _no_script_ran(viewer)


def test_builders_accept_only_the_clients_own_values(page: Any, static_url: str) -> None:
    # The builders behind every card, suit and icon on screen throw on anything else.
    page.goto(static_url + "/#replay")
    page.wait_for_selector("body.ready")
    got = page.evaluate(
        """async (bad) => {
        const cards = await import("/js/core/cards.js");
        const dom = await import("/js/core/dom.js");
        const icons = await import("/js/core/icons.js");
        const board = await import("/js/table/board.js");
        const calls = {
          parseCard: (x) => cards.parseCard(x),
          cardSvg: (x) => cards.cardSvg(x),
          cardInline: (x) => cards.cardInline(x),
          suitIcon: (x) => cards.suitIcon(x),
          suitClass: (x) => cards.suitClass(x),
          suitName: (x) => cards.suitName(x),
          cardEl: (x) => board.cardEl(x),
          icon: (x) => icons.icon(x),
          iconSize: (x) => icons.icon("play", x),
          html: (x) => dom.h("p", { html: x }),
          handler: (x) => dom.h("p", { onclick: x }),
          style: (x) => dom.h("p", { style: x }),
        };
        const out = {};
        for (const [name, fn] of Object.entries(calls)) {
          out[name] = bad.filter((x) => { try { fn(x); return true; } catch { return false; } });
        }
        const good = ["As", "Td", "10h", "2c", "9s", "Jd", "Qh", "Kc"];
        out.good = good.map((c) => board.cardEl(c).querySelectorAll("path, circle").length > 0);
        out.suits = [..."cdhs", 0, 3].map((s) => cards.suitIcon(s).tagName);
        return out;
    }""",
        [X_IMG, X_SCRIPT, X_JS, "x", "cc", "S", "1s", "11h", "ah", "AS", "Ts ", "", "__proto__"],
    )
    for name in ("parseCard", "cardSvg", "cardInline", "suitIcon", "suitClass", "suitName"):
        assert got[name] == [], (name, got[name])
    for name in ("cardEl", "icon", "iconSize", "html", "handler", "style"):
        assert got[name] == [], (name, got[name])
    assert all(got["good"]) and got["suits"] == ["svg"] * 6
    assert page.evaluate("typeof window.__pwned") == "undefined"
