"""The replay viewer, from an uploaded record file alone (static files, no server)."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import DATA, shot


def _open(page: Any, static_url: str, name: str) -> list[dict[str, Any]]:
    page.goto(static_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / name))
    page.wait_for_selector(".replay-controls")
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


def test_replay_steps_through_every_hand(page: Any, static_url: str) -> None:
    (rec,) = _open(page, static_url, "solo4.jsonl")
    page.click("[data-action=next]")
    assert "bids" in page.text_content(".event") or "passes" in page.text_content(".event")
    shot(page, "replay-auction")
    page.click("[data-action=first]")
    for i, hand in enumerate(rec["hands"]):
        if 4 < i < len(rec["hands"]) - 1:
            page.click("[data-action=next-hand]")  # the middle hands: just pass through
            continue
        # From the deal of hand i, step to its result: the summary must match the record.
        page.click("[data-action=next-hand]")
        page.click("[data-action=prev]")
        assert page.text_content(".event") == f"Hand {i + 1} is over."
        box = page.locator(".hand-summary")
        for key in ("high", "low", "jack", "game"):
            text = box.locator(f"[data-award={key}]").text_content()
            want = _side_names(rec, hand["awards"][key])
            assert text.startswith(want) or (key == "jack" and "not dealt" in text), (i, key, text)
        assert box.locator(".made").get_attribute("data-made") == str(hand["made"]).lower()
        scores = [int(x) for x in box.locator(".score-line li b").all_text_contents()]
        assert scores == hand["scores"], i
        if i == 0:
            shot(page, "replay-hand-summary")
        page.click("[data-action=next]")
    page.click("[data-action=last]")
    assert page.text_content(".winner-line") == f"{_side_names(rec, rec['winner'])} won the game!"
    rows = page.locator(".score-sheet tbody tr").count()
    assert rows == len(rec["hands"])


def test_replay_keyboard_and_partnerships(page: Any, static_url: str) -> None:
    recs = _open(page, static_url, "partners.jsonl")
    assert page.locator("select[aria-label=Game] option").count() == len(recs) == 2
    page.select_option("select[aria-label=Game]", "1")
    page.locator("[data-action=next]").focus()
    page.keyboard.press("End")
    assert (
        page.text_content(".winner-line")
        == f"{_side_names(recs[1], recs[1]['winner'])} won the game!"
    )
    page.keyboard.press("Home")
    assert page.text_content(".step").startswith("Move 1 of")
    page.keyboard.press("ArrowRight")
    assert page.text_content(".step").startswith("Move 2 of")
    # Every card on screen is named for screen readers.
    labels = page.locator(".board .card, .replay-hand .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all(labels), labels
    shot(page, "replay-partnerships")
    # The four-colour deck: clubs green, diamonds blue (settings, kept for next time).
    assert page.locator(".card-svg.suit-c4").count() == 0
    page.click("#settings-button")
    page.check("dialog.settings input[name=fourColour]")
    page.click("dialog.settings button[type=submit]")
    assert page.locator(".card-svg.suit-c4").count() > 0
    assert page.locator(".card-svg.suit-d4").count() > 0
    shot(page, "replay-four-colour")


def test_replay_refuses_a_bad_file(page: Any, static_url: str, tmp_path: Any) -> None:
    page.goto(static_url + "/#replay")
    page.wait_for_selector("body.ready")
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}')
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#toast.show")
    assert page.text_content("#toast") == "This file is not a Pitch game record."
