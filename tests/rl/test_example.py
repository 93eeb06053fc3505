"""The self-play training example runs end to end (a tiny run) and saves its plot."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_selfplay.py"


def test_training_example_runs_and_plots(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_selfplay", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plot = tmp_path / "curve.png"
    args = "--players 3 --updates 2 --hands 6 --envs 3 --eval-every 1 --eval-hands 4"
    curves = module.main([*args.split(), "--plot", str(plot)])
    assert plot.stat().st_size > 0
    assert len(curves["random"]) == len(curves["hands"]) == 3
    assert all(-4.0 <= x <= 4.0 for x in curves["random"])
