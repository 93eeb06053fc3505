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


def test_train_play_model_by_seeded_self_play_goes_on_from_its_checkpoint(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    check = tmp_path / "games.ckpt"
    args = ["train", "play-model", "--table", "heads-up", "--table", "partnership"]
    args += ["--games", "5", "--bot", "heuristic", "--seed", "4", "--checkpoint", str(check)]
    whole = tmp_path / "whole.json"
    done = runner.invoke(app, [*args, "--workers", "2", "--out", str(whole)])
    assert done.exit_code == 0, done.output
    assert "decisions from 10 games" in done.output
    model = json.loads(whole.read_text())
    assert model["source"] == "self-play" and model["seed"] == 4 and model["bot"] == "heuristic"
    assert model["decisions"][model_index(2, False)] and model["decisions"][model_index(4, True)]
    assert not model["decisions"][model_index(4, False)]  # a table not asked for
    lines = check.read_text().splitlines()
    assert len(lines) == 11  # the header and a game a line
    # Stopped after three games: the run goes on from them, to the same model.
    check.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    resumed = tmp_path / "resumed.json"
    done = runner.invoke(app, [*args, "--workers", "1", "--out", str(resumed)])
    assert done.exit_code == 0, done.output
    assert json.loads(resumed.read_text())["weights"] == model["weights"]
    assert sorted(check.read_text().splitlines()) == sorted(lines)
    # Another seed, other games (the checkpoint keeps both runs' games apart).
    other = tmp_path / "other.json"
    seed5 = [*args[: args.index("--seed")], "--seed", "5", "--out", str(other)]
    assert runner.invoke(app, seed5).exit_code == 0
    assert json.loads(other.read_text())["weights"] != model["weights"]


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (["--table", "solo9"], "not a table"),
        (["--bot", "nobody"], "unknown bot"),
        (["--bot", "pimc:rollout=gpu"], "option rollout must be one of"),
        (["--bot", "pimc:samples=nan"], "option samples"),
        (["games.jsonl", "--table", "solo4"], "are for self-play"),
        (["--games", "4"], "--games"),
        (["--games", "many"], "--games"),
    ],
)
def test_train_play_model_refuses_bad_options_before_playing(
    tmp_path: Path, bad: list[str], why: str
) -> None:
    out = tmp_path / "m.json"
    done = CliRunner().invoke(app, ["train", "play-model", *bad, "--out", str(out)])
    assert done.exit_code == 2 and why in " ".join(done.output.split()), done.output
    assert not out.exists()


def test_train_play_model_refuses_a_checkpoint_of_another_run_kind(tmp_path: Path) -> None:
    check = tmp_path / "wv.ckpt"
    check.write_text('{"pitch-checkpoint": "win-value"}\n')
    out = tmp_path / "m.json"
    args = ["train", "play-model", "--table", "solo3", "--games", "5", "--bot", "heuristic"]
    done = CliRunner().invoke(app, [*args, "--checkpoint", str(check), "--out", str(out)])
    assert done.exit_code == 2 and "not a checkpoint of play-model" in " ".join(done.output.split())
    assert check.read_text() == '{"pitch-checkpoint": "win-value"}\n' and not out.exists()
