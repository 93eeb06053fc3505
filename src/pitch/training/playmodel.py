"""The learned card model: which card a strong player chooses, for the search's rollouts.

Trained on games of a strong bot in every seat: its own seeded self-play
(``pitch train play-model --table partnership``, :func:`self_play`, resumable through a
checkpoint file) or any game records (``pitch train play-model RECORDS...``, for
instance those ``pitch arena master master --out games.jsonl`` writes): at every card a seat chose
once trump was set, each legal card's features
(:func:`pitch.fastcore.policy.card_features`, read through
:func:`pitch.fastcore.policy.card_rows` from that seat's view only) and the card it
chose. One conditional logit per table (the chance of a card is proportional to
``exp(weights . features)``) is fitted by Newton's method with a little ridge; the
``learned`` rollout policy then plays the card of the highest score
(:mod:`pitch.fastcore.playmodel` reads the shipped model).

Each fit is judged on games it was not fitted to (every :data:`HOLDOUT`-th record):
how often the model's top card is the card chosen, against the heuristic's card, and
the log loss. Why numpy: a Newton step over a few tens of weights is one solve.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pitch.bots.analysis import decisions
from pitch.bots.registry import make_bot
from pitch.bots.runner import play_game
from pitch.engine import Rules, game_record
from pitch.engine.errors import PitchError
from pitch.engine.rules import TABLE_KINDS
from pitch.engine.state import PLAY
from pitch.fastcore import layout, warm_up
from pitch.fastcore._jit import COMPILED, new_array, new_floats
from pitch.fastcore.modelfile import FORMAT, TABLES, model_index
from pitch.fastcore.packing import view_position_list
from pitch.fastcore.playmodel import FEATURES, HEURISTIC_FEATURE, KIND, NF, heuristic_weights
from pitch.fastcore.policy import card_rows
from pitch.training import selfplay

__all__ = [
    "Decisions",
    "collect",
    "fit",
    "judge",
    "play_task",
    "save",
    "self_play",
    "tasks",
    "train",
]

HOLDOUT: Final = 5
"""Every this-many-th record is kept out of the fit, to judge it."""
RIDGE: Final = 1e-3
"""Added to the Hessian's diagonal, per decision: keeps a weight that no decision
moves (a feature always 0 on a table) at 0."""
STEPS: Final = 25
"""Newton steps at most (it converges in under ten on a few thousand decisions)."""
DIGITS: Final = 6
"""Decimals a weight keeps in the model file (the kernels use the file's numbers)."""
MAX_CARDS: Final = 6
"""Legal cards a decision has at most (a hand of six)."""
MAX_HANDS: Final = 200
"""A self-play game still going after this many hands stops (its hands still count)."""


# -- self-play -----------------------------------------------------------------


def play_task(players: int, partnerships: bool, bot: str, index: int, seed: int) -> dict[str, Any]:
    """One self-play game of ``bot`` in every seat on the table ``(players,
    partnerships)``, shuffled from ``seed`` (each seat's bot too): its record."""
    warm_up()  # a capped search must not spend its first decisions loading the kernels
    rules = Rules(players=players, partnerships=partnerships)
    bots = [make_bot(bot, rng=random.Random(f"pitch-train/{seed}/seat{s}")) for s in range(players)]
    outcome = play_game(rules, bots, random.Random(seed), max_hands=MAX_HANDS)
    return game_record(outcome.state, bots=[bot] * players, seed=seed, train={"game": index})


Task = tuple[int, bool, str, int, int]


def tasks(games: int, seed: int, tables: Sequence[str], bot: str) -> list[Task]:
    """``games`` games of ``bot`` on each table named in ``tables``
    (:data:`~pitch.engine.rules.TABLE_KINDS`), one task a
    game, each seeded from ``seed``, its table and its number (so a game does not depend
    on how many workers play them, nor on the other tables asked for)."""
    out: list[Task] = []
    for name in tables:
        players, partners = TABLE_KINDS[name]
        for i in range(games):
            game_seed = random.Random(f"pitch-train-play/{seed}/{name}/{i}").getrandbits(63)
            out.append((players, partners, bot, i, game_seed))
    return out


def self_play(
    games: int,
    seed: int,
    tables: Sequence[str],
    runner: Callable[[Sequence[Task]], Iterable[dict[str, Any]]],
    bot: str,
) -> list[dict[str, Any]]:
    """The records of ``games`` self-play games of each table, in the order of the
    tasks whatever order they finish in (so every fifth, held out, is the same game)."""
    items = tasks(games, seed, tables, bot)
    order = {(t[0], t[1], t[3]): k for k, t in enumerate(items)}
    records = list(runner(items))
    records.sort(
        key=lambda r: order[r["rules"]["players"], r["rules"]["partnerships"], r["train"]["game"]]
    )
    return records


@dataclass
class Decisions:
    """One table's card decisions: each as its legal cards' feature rows (padded to
    :data:`MAX_CARDS`), how many are real, and which was chosen."""

    rows: list[list[float]] = field(default_factory=list)
    """``MAX_CARDS * NF`` floats a decision."""
    sizes: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.chosen)


def card_decisions(
    record: Mapping[str, Any], seats: Callable[[int], bool]
) -> Iterable[tuple[int, list[float], int, int]]:
    """The card decisions of ``record`` that ``seats(seat)`` keeps, once trump is set
    and with a choice to make: ``(table model, feature rows, legal cards, index of the
    chosen card among them)``."""
    for _hand, _trick, view, taken, _first in decisions(record):
        if view.phase != PLAY or not seats(view.seat):
            continue
        legal = view.legal
        cards = [c for c in range(52) if legal >> c & 1]
        if len(cards) < 2:
            continue
        w = new_array([*view_position_list(view), *[0] * (layout.SIZE - layout.POSITION_SIZE)])
        out = new_floats(len(cards) * NF)
        if not card_rows(w, legal, out):
            continue  # the first card names trump: the heuristic's (policy.learned_card)
        rules = view.rules
        table = model_index(rules.players, rules.partnerships)
        yield table, [float(x) for x in out], len(cards), cards.index(taken)


def collect(
    records: Sequence[Mapping[str, Any]],
    imitate: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Decisions], list[Decisions]]:
    """Every table's decisions of ``records`` (the seats whose ``bots`` entry is
    ``imitate``, or every seat), split into the fit's and the held-out ones."""
    fit_part = [Decisions() for _ in TABLES]
    held = [Decisions() for _ in TABLES]
    for i, record in enumerate(records):
        bots = record.get("bots")
        if imitate is not None and not isinstance(bots, list):
            raise PitchError(f"record {i} does not name its bots; drop --imitate")

        def keep(seat: int, bots: Any = bots) -> bool:
            return imitate is None or (seat < len(bots) and bots[seat] == imitate)

        into = held if i % HOLDOUT == HOLDOUT - 1 else fit_part
        try:
            for table, rows, size, chosen in card_decisions(record, keep):
                d = into[table]
                d.rows.append(rows + [0.0] * ((MAX_CARDS - size) * NF))
                d.sizes.append(size)
                d.chosen.append(chosen)
        except PitchError as e:
            raise PitchError(f"record {i}: {e}") from None
        if progress is not None:
            progress(i + 1)
    return fit_part, held


def _arrays(d: Decisions) -> tuple[Any, Any, Any]:
    np = selfplay.numpy()
    x = np.asarray(d.rows, dtype=np.float64).reshape(len(d), MAX_CARDS, NF)
    real = np.arange(MAX_CARDS)[None, :] < np.asarray(d.sizes)[:, None]
    return x, real, np.asarray(d.chosen)


def _probabilities(x: Any, real: Any, beta: Any) -> Any:
    np = selfplay.numpy()
    z = np.where(real, x @ beta, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def fit(d: Decisions) -> list[float]:
    """The conditional logit's weights for one table's decisions, rounded to
    :data:`DIGITS` decimals; a table without decisions keeps the heuristic alone."""
    np = selfplay.numpy()
    if len(d) == 0:
        return heuristic_weights()[0]
    x, real, chosen = _arrays(d)
    n = len(d)
    picked = x[np.arange(n), chosen]
    beta = np.zeros(NF)
    ridge = RIDGE * n * np.eye(NF)
    for _ in range(STEPS):
        p = _probabilities(x, real, beta)
        mean = np.einsum("dk,dkf->df", p, x)
        grad = (picked - mean).sum(axis=0) - RIDGE * n * beta
        second = np.einsum("dk,dkf,dkg->fg", p, x, x) - mean.T @ mean
        step = np.linalg.solve(second + ridge, grad)
        beta += step
        if float(np.abs(step).max()) < 1e-7:
            break
    return [round(float(b), DIGITS) for b in beta]


def judge(d: Decisions, weights: Sequence[float]) -> dict[str, float]:
    """Held-out figures: how often the model's top card and the heuristic's card are
    the card chosen, and the model's log loss against that of a uniform choice."""
    np = selfplay.numpy()
    if len(d) == 0:
        return {"decisions": 0}
    x, real, chosen = _arrays(d)
    n = len(d)
    beta = np.asarray(weights)
    p = _probabilities(x, real, beta)
    top = np.where(real, x @ beta, -np.inf).argmax(axis=1)  # the lowest card on ties
    heur = x[:, :, HEURISTIC_FEATURE].argmax(axis=1)
    return {
        "decisions": n,
        "agree": round(float((top == chosen).mean()), 4),
        "agree_heuristic": round(float((heur == chosen).mean()), 4),
        "log_loss": round(float(-np.log(p[np.arange(n), chosen]).mean()), 4),
        "log_loss_uniform": round(float(np.log(np.asarray(d.sizes)).mean()), 4),
    }


def train(
    records: Sequence[Mapping[str, Any]],
    imitate: str | None = None,
    progress: Callable[[int], None] | None = None,
    source: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Collect, fit and judge: the model as the JSON object :func:`save` writes, with
    ``source`` (how the records were made: the self-play's seed, games, bot) in it."""
    started = time.perf_counter()
    part, held = collect(records, imitate, progress)
    if not any(len(d) for d in part):
        raise PitchError("no card decisions to learn from; give records of played games")
    collected = time.perf_counter() - started
    weights = [fit(d) for d in part]
    return {
        "format": FORMAT,
        "kind": KIND,
        "library": "numpy",
        "compiled": COMPILED,
        "records": len(records),
        "imitate": imitate,
        **(source or {}),
        "tables": [list(t) for t in TABLES],
        "features": list(FEATURES),
        "decisions": [len(d) for d in part],
        "collect_seconds": round(collected, 1),
        "fit_seconds": round(time.perf_counter() - started - collected, 1),
        "holdout": [judge(h, w) for h, w in zip(held, weights, strict=True)],
        "weights": weights,
    }


def save(model: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
