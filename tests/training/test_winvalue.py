"""The learned game value's training: self-play, the network and the bake (the model
as the bots read it is tests/bots/test_winvalue.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitch.bots import winvalue as model_file
from pitch.fastcore.value import CELLS, win_cell
from pitch.training import selfplay, winvalue


def test_the_shipped_table_is_its_weights_baked() -> None:
    data = json.loads(model_file.MODEL_PATH.read_text(encoding="utf-8"))
    assert data["format"] == model_file.FORMAT and data["library"] == "numpy"
    assert winvalue.bake(data["weights"]) == data["table"]
    assert winvalue.point_scale(data["table"]) == data["scale"]
    assert len(model_file.shipped().table) == CELLS


def test_the_bake_walks_the_cells_in_the_kernels_order() -> None:
    # The baked table is read by win_cell in the kernel: cell i of cells() must be
    # the cell win_cell gives index i, or every lookup would read another cell.
    assert [win_cell(*c) for c in winvalue.cells()] == list(range(CELLS))


def test_training_is_reproducible_from_its_seed_on_any_number_of_threads() -> None:
    one = winvalue.self_play(20, 4, selfplay.run_threads(winvalue.play_task, 1))
    two = winvalue.self_play(20, 4, selfplay.run_threads(winvalue.play_task, 2))
    assert one == two
    assert one != winvalue.self_play(20, 5, selfplay.run_threads(winvalue.play_task, 1))
    _, (finished, unfinished, _) = one
    assert finished + unfinished == 20 * len(winvalue.TABLES) * len(winvalue.TARGETS)


def test_a_small_training_run_writes_a_model_that_reads_back(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    model = winvalue.train(300, 2, selfplay.run_threads(winvalue.play_task, 2), steps=200)
    # The network learned something: better than one constant for every cell.
    assert model["fit"]["log_loss"] < model["fit"]["log_loss_constant"]
    path = tmp_path / "m.json"
    winvalue.save(model, path)
    read = model_file.read(path)
    assert read.table == tuple(model["table"]) and read.scale == model["scale"]
