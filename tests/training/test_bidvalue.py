"""The learned bid estimate: its self-play, its fit, the shipped model and its file."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pitch.engine import GameState, Rules
from pitch.engine.errors import PitchError
from pitch.fastcore import bidmodel
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.bidsim import ACC_N, ACC_XX, ACC_XY, ACC_Y, ACC_YY
from pitch.fastcore.layout import DEALER, HANDS
from pitch.fastcore.packing import table
from pitch.fastcore.rules import deal
from pitch.training import bidvalue, selfplay
from tests.support import policy_oracle as oracle


def _rows(players: int, partnerships: bool, seed: int) -> list[tuple[list[float], float]]:
    """The rows of one deal as the oracle makes them: the same hands the kernel deals
    (its own deal function and generator), every seat pitching every suit it holds
    through the checked engine, the oracle's heuristic playing it out."""
    rules = Rules(players=players, partnerships=partnerships)
    w = new_array(table(rules, 0))
    w[DEALER] = 0
    deal(w, seed64(seed))
    hands = [int(w[HANDS + t]) for t in range(players)]
    rows = []
    for seat in range(players):
        for suit in range(4):
            trumps = hands[seat] >> (13 * suit) & 0x1FFF
            if not trumps:
                continue
            st = GameState(rules, dealer=0)
            st.deal(hands)
            while st.phase_name == "bid":
                st.apply(54 if st.to_act == seat else 52)
            st.apply(13 * suit + trumps.bit_length() - 1)
            while st.phase_name == "play":
                st.apply(oracle.state_action(st))
            won = st.last_result
            assert won is not None and won.pitcher == seat
            f = oracle.suit_features(hands[seat], suit, players, partnerships)
            x = [0.0] * bidmodel.FEATURES
            x[bidmodel.W_HIGH + int(f[0])] = 1.0
            x[bidmodel.W_LOW + int(f[1])] = 1.0
            x[bidmodel.W_COUNT + int(f[2])] = 1.0
            for i, v in enumerate(f[3:]):
                x[bidmodel.W_DENSE + i] = float(v)
            rows.append((x, float(won.won[rules.side_of(seat)])))
    return rows


@pytest.mark.parametrize(("players", "partnerships"), [(4, True), (3, False), (2, False)])
def test_the_kernel_sums_the_rows_the_oracle_makes(players: int, partnerships: bool) -> None:
    # One deal: the kernel's sums are those of the oracle's rows (features in the
    # weights' places, the pitcher's side's points as the answer).
    seed = 17
    _, acc = bidvalue.play_task(0, players, partnerships, 1, seed)
    rows = _rows(players, partnerships, seed)
    assert acc[ACC_N] == len(rows) > 0
    assert acc[ACC_Y] == sum(y for _, y in rows)
    assert acc[ACC_YY] == sum(y * y for _, y in rows)
    n = bidmodel.FEATURES
    for i in range(n):
        assert acc[ACC_XY + i] == pytest.approx(sum(x[i] * y for x, y in rows), abs=1e-9)
        for j in range(n):
            want = sum(x[i] * x[j] for x, _ in rows)
            assert acc[ACC_XX + i * n + j] == pytest.approx(want, abs=1e-9)


def test_self_play_is_reproducible_from_its_seed_on_any_number_of_threads() -> None:
    one = bidvalue.self_play(30, 4, selfplay.run_threads(bidvalue.play_task, 1))
    assert one == bidvalue.self_play(30, 4, selfplay.run_threads(bidvalue.play_task, 2))
    assert one != bidvalue.self_play(30, 5, selfplay.run_threads(bidvalue.play_task, 1))
    assert len(one) == len(bidmodel.TABLES)


def test_a_small_training_run_beats_the_formula_on_held_out_hands(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    model = bidvalue.train(4000, 2, selfplay.run_threads(bidvalue.play_task, 2))
    for (players, pairs), h in zip(model["tables"], model["holdout"], strict=True):
        assert h["rows"] > 5_000
        assert h["mse"] < h["mse_formula"], (players, pairs, h)
        assert h["mse"] < h["mse_constant"]
    path = tmp_path / "m.json"
    bidvalue.save(model, path)
    flat = [w for row in model["weights"] for w in row]
    assert bidmodel.read(path) == tuple(flat)
    # Its seed fixes it, whatever the number of threads.
    again = bidvalue.train(4000, 2, selfplay.run_threads(bidvalue.play_task, 1))
    assert again["weights"] == model["weights"] and again["holdout"] == model["holdout"]


def test_the_shipped_model_is_the_one_the_kernels_use_and_it_beats_the_formula() -> None:
    data = json.loads(bidmodel.MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(w for row in data["weights"] for w in row) == bidmodel.WEIGHTS
    assert data["tables"] == [list(t) for t in bidmodel.TABLES]
    for h in data["holdout"]:
        assert h["rows"] > 500_000 and h["mse"] < h["mse_formula"] < h["mse_constant"]


def test_the_formula_model_is_the_hand_written_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    # The weights' layout: the formula model (weight 1 on the formula) gives exactly
    # the hand-written estimate, so the heuristic bid by it before it was learned.
    flat = tuple(w for row in bidmodel.formula_weights() for w in row)
    monkeypatch.setattr(bidmodel, "WEIGHTS", flat)
    rng = random.Random(3)
    for _ in range(300):
        players = rng.randrange(2, 8)
        pairs = players == 4 and rng.random() < 0.5
        hand = sum(1 << c for c in rng.sample(range(52), 6))
        for suit in range(4):
            if not hand >> (13 * suit) & 0x1FFF:
                continue
            want = oracle.suit_estimate(hand, suit, players, pairs)
            assert oracle.learned_estimate(hand, suit, players, pairs) == want


def _model() -> dict[str, Any]:
    return {"format": 1, "kind": "bid-value", "weights": bidmodel.formula_weights()}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=2), "format"),
        (lambda d: d.update(kind="win-value"), "format"),
        (lambda d: d.update(weights=d["weights"][:-1]), "tables"),
        (lambda d: d["weights"][2].pop(), "weights"),
        (lambda d: d["weights"][0].__setitem__(3, float("nan")), "finite"),
        (lambda d: d["weights"][0].__setitem__(3, 1e9), "finite"),
        (lambda d: d["weights"][0].__setitem__(3, "1"), "numbers"),
        (lambda d: d["weights"][0].__setitem__(3, True), "numbers"),
        (lambda d: d.clear(), "format"),
    ],
)
def test_a_bad_model_file_is_refused(tmp_path: Path, change: Any, message: str) -> None:
    data = copy.deepcopy(_model())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PitchError, match=message):
        bidmodel.read(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(PitchError, match="cannot read"):
        bidmodel.read(path)


def test_training_needs_deals() -> None:
    with pytest.raises(PitchError, match="deals"):
        bidvalue.train(1, 1, selfplay.run_threads(bidvalue.play_task, 1))
