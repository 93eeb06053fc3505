"""``pitch replay`` steps through any record: trick by trick, hand by hand."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pexpect

from pitch.bots import RandomBot, play_game
from pitch.engine import Rules, dumps, game_record
from tests.tui.conftest import spawn, strip_ansi


def write_games(path: Path, n: int = 2) -> list[dict[str, object]]:
    recs = []
    for g in range(n):
        rng = random.Random(g)
        bots = [RandomBot(rng=random.Random(g * 10 + s)) for s in range(3)]
        out = play_game(Rules(players=3, target=3), bots, rng, max_hands=50)
        recs.append(game_record(out.state))
    path.write_text("".join(dumps(r) + "\n" for r in recs), encoding="utf-8")
    return recs


def test_replay_steps_trick_by_trick_and_hand_by_hand(tmp_path: Path) -> None:
    f = tmp_path / "games.jsonl"
    recs = write_games(f)
    child = spawn(["replay", str(f), "--game", "1", "--lang", "en"], tmp_path)
    child.expect("Enter: next trick")
    first = strip_ansi(child.before)
    assert "Hand 1" in first and "Auction:" in first and "Trick 1:" not in first
    child.sendline("")
    child.expect("Enter: next trick")
    assert "Trick 1:" in strip_ansi(child.before) and "Trick 2:" not in strip_ansi(child.before)
    child.sendline("n")  # to the end of the hand: its summary
    child.expect("Enter: next hand")
    summary = strip_ansi(child.before)
    assert "Trick 6:" in summary and "High" in summary and "Low" in summary
    hands = recs[1]["hands"]
    assert isinstance(hands, list)
    if len(hands) > 1:
        child.sendline("")
        child.expect("Hand 2")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_replay_without_a_terminal_prints_the_whole_game(tmp_path: Path) -> None:
    f = tmp_path / "games.jsonl"
    recs = write_games(f, 1)
    out = subprocess.run(
        [sys.executable, "-m", "pitch", "replay", str(f), "--lang", "sv", "--ascii"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=True,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "80"},
    ).stdout
    hands = recs[0]["hands"]
    assert isinstance(hands, list)
    assert f"Giv {len(hands)}" in out and "Stick 6:" in out
    assert "vann spelet" in out
    assert "Nådde målet i slutet av en giv där den var spelförare (R6.2)." in out  # why
    assert "♥" not in out  # --ascii: plain letters


def test_replay_of_a_broken_record_names_the_rule(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    (rec,) = write_games(f, 1)
    hands = rec["hands"]
    assert isinstance(hands, list)
    hands[0]["delta"] = [9, 9, 9]
    f.write_text(dumps(rec) + "\n", encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "pitch", "replay", str(f)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert res.returncode == 1
    assert "R5.6" in res.stderr and "Traceback" not in res.stderr
