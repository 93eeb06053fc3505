"""``pitch train win-value``: self-play to a model file the search can read."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitch.bots import winvalue
from pitch.cli.main import app

runner = CliRunner()


def test_train_writes_a_model_that_reads_back(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "wv.json"
    args = ["train", "win-value", "--games", "10", "--steps", "20", "--seed", "3"]
    r = runner.invoke(app, [*args, "--workers", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "games (0 unfinished)" in r.output and "wrote" in r.output
    model = winvalue.read(out)
    again = tmp_path / "again.json"
    assert runner.invoke(app, [*args, "--workers", "1", "-o", str(again)]).exit_code == 0
    assert winvalue.read(again) == model  # the seed fixes the model, not the threads


@pytest.mark.parametrize(
    "bad",
    [["--games", "0"], ["--games", "x"], ["--steps", "0"], ["--workers", "-1"]],
)
def test_train_refuses_bad_options(tmp_path: Path, bad: list[str]) -> None:
    r = runner.invoke(app, ["train", "win-value", *bad, "-o", str(tmp_path / "m.json")])
    assert r.exit_code == 2
    assert not (tmp_path / "m.json").exists()


def test_train_refuses_an_output_it_cannot_write_before_playing(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    for out in (tmp_path / "adir", blocker / "m.json"):
        r = runner.invoke(app, ["train", "win-value", "--games", "2000", "-o", str(out)])
        assert r.exit_code == 2, r.output
        assert "cannot write" in r.output and "games (" not in r.output  # nothing played
