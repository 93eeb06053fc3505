"""The engine's commands: ``pitch verify``, ``pitch simulate``, ``pitch bench``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitch.cli.main import app
from pitch.engine import Rules, dumps, game_record
from tests.support.deals import D4_TRICKS, play_d4

runner = CliRunner()


def good_record() -> dict[str, Any]:
    return json.loads(dumps(game_record(play_d4())))


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def verify(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["verify", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_verify_good_file(tmp_path: Path) -> None:
    p = write(tmp_path, "good.jsonl", [dumps(good_record())] * 3)
    code, out = verify(str(p))
    assert code == 0 and "3 games checked, 3 good, 0 bad" in out
    code, out = verify("--quiet", str(p))
    assert code == 0 and out == ""


def corrupt(field: str) -> dict[str, Any]:
    rec = copy.deepcopy(good_record())
    h = rec["hands"][0]
    if field == "unknown card":
        h["deal"][2][0] = "Xq"
    elif field == "wrong counts":
        h["deal"][1] = h["deal"][1][:5]
    elif field == "illegal play":
        # Trick 1 (index 1): seat 2 holds clubs but discards the 9d (R4.3).
        t = h["tricks"][1]
        assert t["cards"] == list(D4_TRICKS[1])
        t["cards"][1] = "9d"
    elif field == "bad trick card":
        h["tricks"][3]["cards"][2] = "Zz"
    return rec


@pytest.mark.parametrize(
    ("field", "rule", "trick"),
    [
        ("unknown card", "R2.1", None),
        ("wrong counts", "R2.2", None),
        ("illegal play", "R4.3", 1),
        ("bad trick card", "R2.1", 3),
    ],
)
def test_verify_reports_file_game_hand_trick_rule(
    tmp_path: Path, field: str, rule: str, trick: int | None
) -> None:
    p = write(tmp_path, "bad.jsonl", [dumps(good_record()), dumps(corrupt(field))])
    code, out = verify(str(p))
    assert code == 1
    line = next(x for x in out.splitlines() if "game 1" in x)
    assert str(p) in line and "hand 0" in line and rule in line
    if trick is not None:
        assert f"trick {trick}" in line
    assert "2 games checked, 1 good, 1 bad" in out


def test_verify_malformed_json(tmp_path: Path) -> None:
    p = write(tmp_path, "broken.jsonl", [dumps(good_record()), '{"rules": {', "[1, 2"])
    code, out = verify(str(p))
    assert code == 1
    assert f"{p}: game 1 (line 2): malformed JSON" in out
    assert f"{p}: game 2 (line 3): malformed JSON" in out


def test_verify_not_a_record_and_unreadable(tmp_path: Path) -> None:
    p = write(tmp_path, "odd.jsonl", ["[1, 2]"])
    code, out = verify(str(p))
    assert code == 1 and "format" in out
    code, out = verify(str(tmp_path / "missing.jsonl"))
    assert code == 1 and "cannot read" in out
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    code, out = verify(str(binary))
    assert code == 1 and "cannot read" in out


def test_verify_wrong_winner_names_rule(tmp_path: Path) -> None:
    rec = good_record()
    rec["winner"] = 2
    code, out = verify(str(write(tmp_path, "w.jsonl", [dumps(rec)])))
    assert code == 1 and "R6.2" in out


def simulate(*args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def test_simulate_seed_reproducible_and_verifiable(tmp_path: Path) -> None:
    short = ("--players", "3", "--max-hands", "6")  # random bidders can play for long
    a = simulate("--games", "3", "--seed", "5", *short)
    b = simulate("--games", "3", "--seed", "5", *short)
    assert a.exit_code == 0 and b.exit_code == 0
    lines = [x for x in a.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 3
    assert lines == [x for x in b.stdout.splitlines() if x.startswith("{")]
    rec = json.loads(lines[0])
    assert rec["seed"] is not None and rec["bots"] == ["random"] * 3
    assert Rules.from_dict(rec["rules"]) == Rules(players=3)
    c = simulate("--games", "3", "--seed", "6", *short)
    assert [x for x in c.stdout.splitlines() if x.startswith("{")] != lines


def test_simulate_out_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    res = simulate(
        "--games", "2", "--seed", "1", "--partnerships", "--max-hands", "8", "-o", str(out)
    )
    assert res.exit_code == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    code, text = verify(str(out))
    assert code == 0 and "2 good" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "players"),
        (["--players", "3", "--partnerships"], "R1.2"),
        (["--target", "0"], "target"),
        (["--bots", "random,random"], "--bots"),
        (["--bots", "nosuchbot"], "--bots"),
        (["--preset", "nosuch"], "unknown preset"),
        (["--games", "0"], "games"),
    ],
)
def test_simulate_bad_flags(args: list[str], message: str) -> None:
    res = simulate("--games", "1", *args) if "--games" not in args else simulate(*args)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_bench_json() -> None:
    res = runner.invoke(app, ["bench", "--hands", "30", "--repeat", "1", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["checked_hands_per_s"] > 0 and data["fast_hands_per_s"] > 0
    assert data["hands"] == 30 and data["players"] == 4


def test_bench_text() -> None:
    res = runner.invoke(app, ["bench", "--hands", "20", "--repeat", "1", "--players", "3"])
    assert res.exit_code == 0 and "checked API" in res.stdout and "fast path" in res.stdout


def test_rule_options_apply_after_the_preset() -> None:
    rules = ["--rule", "min_bid=2", "--rule", "must_make_bid_to_win=off", "--rule", "target=5"]
    res = runner.invoke(app, ["simulate", "--games=1", "--seed=3", "--preset=club", *rules])
    assert res.exit_code == 0, res.output
    rec = json.loads(next(ln for ln in res.output.splitlines() if ln.startswith('{"format"')))
    assert Rules.from_dict(rec["rules"]) == Rules(
        partnerships=True, target=5, min_bid=2, must_make_bid_to_win=False
    )
    assert all(b == 0 or b >= 2 for h in rec["hands"] for _s, b in h["bids"])


@pytest.mark.parametrize("command", ["play", "simulate", "arena"])
@pytest.mark.parametrize(
    ("rule", "says"),
    [
        ("low_to=dealer", "R5.2: low_to must be 'captor' or 'holder', not 'dealer'."),
        ("colour=red", "unknown table option 'colour'; choose one of: players,"),
        ("min_bid", "--rule takes KEY=VALUE, not 'min_bid'."),
    ],
)
def test_a_bad_rule_option_is_a_usage_error_naming_it(command: str, rule: str, says: str) -> None:
    bots = ["random", "random"] if command == "arena" else []
    res = runner.invoke(app, [command, *bots, "--rule", rule], terminal_width=400)
    assert res.exit_code == 2
    assert says in " ".join(res.output.split())


@pytest.mark.parametrize("command", [["reports", "list"], ["ratings", "flagged"]])
def test_the_operators_reads_say_what_is_wrong_with_a_database(
    tmp_path: Path, command: list[str]
) -> None:
    """A database no server has set up (the read never migrates it: a server may be
    running on it), and a URL of no database: one line each, and exit 2."""
    empty = tmp_path / "empty.db"
    empty.touch()
    r = runner.invoke(app, [*command, "--db", f"sqlite:///{empty}"])
    assert r.exit_code == 2, r.output
    assert "no such table" in r.output and "'pitch serve' upgrades it" in r.output
    assert "SELECT" not in r.output  # the driver's words, not the SQL
    r = runner.invoke(app, [*command, "--db", "bogus://x"])
    assert r.exit_code == 2 and "Can't load plugin" in r.output, r.output
