"""``pitch train win-value`` and ``bid-value``: self-play to model files the bots read."""

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


def test_train_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    check = tmp_path / "wv.ckpt"
    args = ["train", "win-value", "--games", "10", "--steps", "20", "--checkpoint", str(check)]
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    assert runner.invoke(app, [*args, "-o", str(first)]).exit_code == 0
    kept = check.read_text()
    assert kept.count("\n") == 1 + 28  # the header, then 7 tables x 4 targets of one task
    assert runner.invoke(app, [*args, "-o", str(second)]).exit_code == 0
    assert check.read_text() == kept  # nothing played again
    assert winvalue.read(second) == winvalue.read(first)


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


def test_train_bid_value_writes_a_model_the_kernels_can_read(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from pitch.fastcore import bidmodel

    out = tmp_path / "bv.json"
    args = ["train", "bid-value", "--deals", "400", "--seed", "3"]
    r = runner.invoke(app, [*args, "--workers", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "held-out hands" in r.output and "4 pairs" in r.output and "wrote" in r.output
    again = tmp_path / "again.json"
    assert runner.invoke(app, [*args, "--workers", "1", "-o", str(again)]).exit_code == 0
    assert bidmodel.read(again) == bidmodel.read(out)  # the seed fixes the model


@pytest.mark.parametrize(
    "bad",
    [["--deals", "3"], ["--deals", "1e9"], ["--deals", "x"], ["--workers", "-1"], ["--ray"]],
)
def test_train_bid_value_refuses_bad_options(tmp_path: Path, bad: list[str]) -> None:
    out = tmp_path / "m.json"
    r = runner.invoke(app, ["train", "bid-value", *bad, "-o", str(out)])
    assert r.exit_code == 2
    assert not out.exists()


def test_train_bid_value_refuses_an_output_it_cannot_write(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    r = runner.invoke(app, ["train", "bid-value", "-o", str(tmp_path / "adir")])
    assert r.exit_code == 2 and "cannot write" in r.output
