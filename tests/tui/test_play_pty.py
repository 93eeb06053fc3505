"""``pitch play`` end to end in a pseudo-terminal: moves, refusals, save, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect

from pitch.engine import read_records, verify_record
from tests.tui.conftest import (
    BID_PROMPT,
    CARD_PROMPT,
    NEXT_HAND,
    WON,
    first_choice_loop,
    signal_state,
    spawn,
    strip_ansi,
)


def hand_of(screen: str) -> str:
    """The last drawn line of the player's hand."""
    return [ln.strip() for ln in screen.splitlines() if ln.startswith("Your hand:")][-1]


BASE = ["play", "--fast", "--level", "random", "--lang", "en"]


def test_whole_game_to_the_winner_and_a_record_that_verifies(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    child = spawn([*BASE, "--seed", "11", "--target", "3", "--save", str(save)], tmp_path)
    pats = {"bid": BID_PROMPT, "card": CARD_PROMPT, "next": NEXT_HAND, "won": WON}
    assert first_choice_loop(child, pats, hands=200) == "won"
    child.expect(r"Record saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    (rec,) = read_records(save)
    assert verify_record(rec) is None
    assert rec["winner"] is not None and "in_progress" not in rec
    assert rec["human"] == 0 and rec["bots"][0] is None


def test_illegal_card_is_refused_with_the_rule_and_nothing_changes(tmp_path: Path) -> None:
    save = tmp_path / "g.jsonl"
    child = spawn([*BASE, "--seed", "5", "--save", str(save)], tmp_path)
    pats = {"bid": BID_PROMPT, "card": CARD_PROMPT}
    keys = list(pats)
    while keys[child.expect(list(pats.values()))] != "card":
        child.sendline("0" if "pass" in strip_ansi(child.before).split("Your bid:")[-1] else "2")
    screen = strip_ansi(child.before)
    hand_line = hand_of(screen)
    # A card no one holds in this hand cannot be in ours: pick one not on our line.
    missing = next(
        c
        for c in ("As", "Ks", "Qs", "2c", "3c", "4d")
        if c[0] + "♠♣♦"["scd".index(c[1])] not in hand_line
    )
    child.sendline(missing)
    child.expect(CARD_PROMPT)
    after = strip_ansi(child.before)
    assert "is not in your hand (R4.2)" in after
    assert hand_of(after) == hand_line
    child.sendline("banana")
    child.expect(CARD_PROMPT)
    assert "is not a card" in strip_ansi(child.before)
    child.sendline("?")
    child.expect(CARD_PROMPT)
    assert "Hint (strongest bot):" in strip_ansi(child.before)
    child.sendline("s")  # the score sheet, then back to the same table
    child.expect("Press Enter to go back to the table")
    child.sendline("")
    child.expect(CARD_PROMPT)
    assert hand_of(strip_ansi(child.before)) == hand_line
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    rec = json.loads(save.read_text())
    assert rec["in_progress"]["deal"] is not None


def test_ctrl_c_saves_and_resume_continues_the_same_hand(tmp_path: Path) -> None:
    save = tmp_path / "g.jsonl"
    child = spawn([*BASE, "--seed", "7", "--target", "1", "--save", str(save)], tmp_path)
    pats = {"bid": BID_PROMPT, "card": CARD_PROMPT, "next": NEXT_HAND}
    keys = list(pats)
    plays = 0
    while True:
        k = keys[child.expect(list(pats.values()))]
        if k == "card":
            plays += 1
            if plays == 3:
                break
            child.sendline("1")
        elif k == "bid":
            child.sendline("4")  # always legal (R3.2): we pitch, so we lead and play
        else:
            child.sendline("")
    screen = strip_ansi(child.before)
    hand_line = hand_of(screen)
    child.sendintr()
    assert child.expect([r"Game saved to", pexpect.TIMEOUT]) == 0, signal_state(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    (rec,) = read_records(save)
    assert verify_record(rec) is None  # the finished hands check out
    assert rec["in_progress"]["cards"]

    child = spawn(["play", "--fast", "--resume", str(save)], tmp_path)
    child.expect(CARD_PROMPT)
    resumed = strip_ansi(child.before)
    assert hand_of(resumed) == hand_line
    pats = {"bid": BID_PROMPT, "card": CARD_PROMPT, "next": NEXT_HAND, "won": WON}
    child.sendline("1")
    assert first_choice_loop(child, pats, hands=200) == "won"
    child.expect(pexpect.EOF)
    child.close()
    (rec,) = read_records(save)
    assert verify_record(rec) is None and rec["winner"] is not None


def test_enter_skips_the_bots_pacing(tmp_path: Path) -> None:
    # Bots pause 25 s after each play; without the skip the prompt would not come
    # within 20 s (a bot plays before our first bid with this seed).
    child = spawn(
        ["play", "--delay", "25", "--level", "random", "--lang", "en", "--seed", "5"],
        tmp_path,
    )
    child.expect(r"Enter: skip to your turn")
    child.sendline("")
    child.expect(BID_PROMPT, timeout=20)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
