"""``pitch analyze`` and ``pitch replay --analyze``: the same figures for the same seed,
byte for byte, and bad input refused with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitch.cli.main import app
from pitch.engine import dumps
from tests.bots.test_analysis import hand_record

runner = CliRunner()
SLOW = ("--time", "60")  # no decision runs into it: the figures depend on the seed alone


def invoke(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    return res.exit_code, res.output


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    """Two one-hand games: seat 0 captures the Jack in the first and gives it away in
    the second."""
    p = tmp_path / "games.jsonl"
    p.write_text(
        dumps(hand_record("Jc", "Qs")) + "\n" + dumps(hand_record("Jc", "3s")) + "\n",
        encoding="utf-8",
    )
    return p


def test_json_is_the_same_byte_for_byte_and_complete(record_file: Path) -> None:
    code, out = invoke(
        "analyze", str(record_file), "--json", "--deals", "100", "--seed", "4", *SLOW
    )
    assert code == 0
    assert invoke(
        "analyze", str(record_file), "--json", "--deals", "100", "--seed", "4", *SLOW
    ) == (
        0,
        out,
    )
    data = json.loads(out)
    assert data["version"] == 1 and [g["game"] for g in data["games"]] == [0, 1]
    second = data["games"][1]
    for d in second["decisions"]:
        assert {"seat", "action", "best", "loss", "mark", "values", "hand", "trick"} <= set(d)
        assert d["action"] in d["values"] and d["best"] in d["values"]
        assert len(d["chances"]) == 2
        if len(d["values"]) == 1:
            assert d["loss"] == 0 and d["mark"] is None
    given = next(d for d in second["decisions"] if d["seat"] == 0 and d["trick"] == 4)
    assert given["action"] == "3s" and given["best"] == "Qs" and given["loss"] > 0
    assert [p["seat"] for p in second["players"]] == [0, 1]
    assert second["players"][0]["worst"][0] == given["n"]


def test_text_has_the_decisions_the_players_and_a_sparkline(record_file: Path) -> None:
    code, out = invoke("analyze", str(record_file), "--game", "1", "--deals", "100", *SLOW)
    assert code == 0
    assert "Game 1: 14 decisions" in out and "Game 0" not in out
    assert "best Qs" in out and "(forced)" in out and "accuracy" in out
    lines = out.splitlines()
    at = lines.index("Win chance after each bid and trick:")
    sides = lines[at + 1 : at + 3]
    assert all(any(c in line for c in "▁▂▃▄▅▆▇█") for line in sides)
    # Two bids and six tricks: eight points a side.
    assert all(sum(c in "▁▂▃▄▅▆▇█" for c in line) == 8 for line in sides)


def test_replay_shows_the_marks_of_the_analysis(record_file: Path) -> None:
    code, out = invoke("analyze", str(record_file), "--game", "1", "--json")
    assert code == 0
    marked = [d for d in json.loads(out)["games"][0]["decisions"] if d["mark"]]
    assert marked  # seat 0's 3s gave away the Jack
    code, shown = invoke("replay", str(record_file), "--game", "1", "--analyze", "--lang", "en")
    assert code == 0
    symbol = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for d in marked:
        line = f"{symbol[d['mark']]} Seat {d['seat']}: {d['action']} -> {d['best']} "
        assert line + f"(-{100 * d['loss']:.1f} %)" in shown
    code, plain = invoke("replay", str(record_file), "--game", "1", "--lang", "en")
    assert code == 0 and "->" in plain and " -> Qs" not in plain


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--time", "-1"], "--time"),
        (["--time", "nan"], "--time"),
        (["--time", "1e9"], "--time"),
        (["--time", "0"], "--time"),
        (["--deals", "0"], "--deals"),
        (["--game", "2"], "--game must be 0..1"),
        (["--game", "-1"], "--game must be 0..1"),
    ],
)
def test_bad_options_are_refused(record_file: Path, args: list[str], says: str) -> None:
    code, out = invoke("analyze", str(record_file), *args)
    assert code == 2 and says in out


def test_a_refused_record_is_refused_naming_the_rule(tmp_path: Path) -> None:
    rec = hand_record("Jc", "Qs")
    rec["hands"][0]["tricks"][0]["winner"] = 1
    p = tmp_path / "bad.jsonl"
    p.write_text(dumps(rec) + "\n", encoding="utf-8")
    code, out = invoke("analyze", str(p))
    assert code == 1 and "game 0" in out and "R4" in out
    p.write_text("{not json\n", encoding="utf-8")
    code, out = invoke("analyze", str(p))
    assert code == 2 and "malformed JSON" in out
    code, out = invoke("analyze", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "FILE" in out
