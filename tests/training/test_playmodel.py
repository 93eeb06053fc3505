"""``pitch train play-model``: the fit finds known weights, a model learned from a
bot's own games plays its cards, and bad input is refused with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitch.arena.match import ArenaConfig, play_deal
from pitch.cli.main import app
from pitch.engine import Rules
from pitch.engine.errors import PitchError
from pitch.fastcore import playmodel
from pitch.fastcore.modelfile import TABLES, model_index
from pitch.fastcore.playmodel import FEATURES, NF
from pitch.training import playmodel as train

np = pytest.importorskip("numpy")


def test_the_fit_finds_the_weights_the_choices_were_drawn_from() -> None:
    rng = np.random.default_rng(5)
    truth = rng.normal(0.0, 1.0, NF)
    d = train.Decisions()
    for _ in range(6000):
        k = int(rng.integers(2, train.MAX_CARDS + 1))
        x = rng.normal(0.0, 1.0, (k, NF))
        p = np.exp(x @ truth)
        d.rows.append([*x.ravel(), *[0.0] * ((train.MAX_CARDS - k) * NF)])
        d.sizes.append(k)
        d.chosen.append(int(rng.choice(k, p=p / p.sum())))
    got = np.asarray(train.fit(d))
    assert np.abs(got - truth).max() < 0.25, (got, truth)
    judged = train.judge(d, got)
    assert judged["log_loss"] < judged["log_loss_uniform"] - 0.3


def _records(bot: str, deals: int) -> list[dict[str, object]]:
    cfg = ArenaConfig(bot, "random", Rules(partnerships=True), deals, seed=3, records=True)
    return [json.loads(r) for i in range(deals) for r in play_deal(cfg, i).records]


def test_a_model_of_the_heuristic_games_plays_the_heuristic_cards(tmp_path: Path) -> None:
    games = _records("heuristic", 6)
    model = train.train(games, imitate="heuristic")
    assert model["kind"] == "play-model" and len(model["weights"]) == len(TABLES)
    table = model_index(4, True)
    assert model["decisions"][table] > 300
    assert sum(model["decisions"]) == model["decisions"][table]  # one table played
    held = model["holdout"][table]
    assert held["agree_heuristic"] == 1.0  # only the heuristic's seats were read
    assert held["agree"] >= 0.98, held
    row = model["weights"][table]
    assert row[FEATURES.index("heuristic")] == max(row)
    untouched = model["weights"][0]  # heads-up: no games, the heuristic alone
    assert untouched == playmodel.heuristic_weights()[0]
    out = tmp_path / "m.json"
    train.save(model, out)
    assert playmodel.read(out) == tuple(x for r in model["weights"] for x in r)
    # The same records, the same model, to the last digit.
    assert train.train(games, imitate="heuristic")["weights"] == model["weights"]


def test_train_play_model_from_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(r) + "\n" for r in _records("heuristic", 2)))
    out = tmp_path / "model.json"
    done = runner.invoke(app, ["train", "play-model", str(games), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "decisions from 4 games" in done.output and out.exists()
    assert playmodel.read(out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "pitch-record"}\n')
    for args, why in (
        ([str(tmp_path / "none.jsonl")], "cannot read"),
        ([str(bad)], "record 0: "),
        ([str(games), "--imitate", "nobody"], "no card decisions"),
    ):
        done = runner.invoke(app, ["train", "play-model", *args, "--out", str(out)])
        assert done.exit_code == 2 and why in done.output, done.output
    with pytest.raises(PitchError, match="does not name its bots"):
        train.collect([{"rules": {}, "hands": []}], imitate="x")
