"""``pitch train``: learn from self-play games of the compiled simulator."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from pitch.engine.errors import PitchError
from pitch.engine.rules import TABLE_KINDS

T = TypeVar("T")

train_app = typer.Typer(
    help="Train the bots' learned models from self-play (docs/bots.md).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(train_app, name="train")


def _writable(out: Path) -> None:
    """A bad ``--out`` fails now, not after minutes of self-play."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        writable = os.access(out.parent, os.W_OK) and not out.is_dir()
    except OSError:
        writable = False
    if not writable:
        raise typer.BadParameter(f"cannot write {out}", param_hint="--out")


def _runner(
    module: Any,
    workers: int,
    ray: str | None,
    checkpoint: Path | None,
    kind: str,
    progress: Callable[[int, int], None],
) -> Any:
    """Where ``module``'s self-play tasks run: Ray tasks at ``ray``, else ``workers``
    threads (0: a thread per local core); each answer kept in ``checkpoint`` as it
    comes, and the answers found there not played again (``selfplay.resumable``)."""
    from pitch.training import selfplay

    task = selfplay.tagged(module.play_task)
    if ray is None:
        run = selfplay.run_threads(task, workers or os.cpu_count() or 1)
    else:
        from pitch.training.ray_backend import RayUnavailable

        try:
            run = selfplay.run_ray(task, ray)
        except RayUnavailable as e:
            raise typer.BadParameter(str(e), param_hint="--ray") from None
    return selfplay.resumable(run, checkpoint, kind, progress)


@contextmanager
def _progress(console: Console, what: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar (on the terminal only) fed ``(done, total)``."""
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _train(console: Console, work: Callable[[], T]) -> T:
    try:
        return work()
    except PitchError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(2) from None


def _save(
    console: Console, save: Callable[[dict[str, Any], Path], None], model: dict[str, Any], out: Path
) -> None:
    try:
        save(model, out)
    except OSError as e:
        console.print(f"[red]cannot write {out}: {e.strerror or e}[/red]")
        raise typer.Exit(2) from None


Workers = Annotated[
    int, typer.Option(min=0, max=256, help="Threads playing games (0: all local cores).")
]
Ray = Annotated[
    str | None,
    typer.Option(help="Play the games as Ray tasks: a cluster ADDRESS, or 'auto'/'local'."),
]
Seed = Annotated[int, typer.Option(help="Seed: the same seed, the same model.")]
Checkpoint = Annotated[
    Path | None,
    typer.Option(
        help="Keep each finished self-play task in FILE; run again with the same FILE "
        "(and the same options) to go on where a stopped run ended, to the same model."
    ),
]


@train_app.command("win-value")
def win_value(
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=10_000_000, help="Self-play games per table and target."
        ),
    ] = 100_000,
    seed: Seed = 1,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the model (JSON).")] = (
        Path("win_value.json")
    ),
    workers: Workers = 0,
    ray: Ray = None,
    steps: Annotated[int, typer.Option(min=1, max=100_000, help="Training steps.")] = 3000,
    checkpoint: Checkpoint = None,
) -> None:
    """Learn how likely a side is to win the game from each score (what `master`
    plays for, `pimc:win_weight`): self-play with the heuristic on every table and
    target, then a small network fitted to the outcomes, written as JSON."""
    from pitch.training import winvalue

    console = Console(stderr=True)
    _writable(out)
    with _progress(console, "self-play") as progress:
        runner = _runner(winvalue, workers, ray, checkpoint, "win-value", progress)
        model = _train(console, lambda: winvalue.train(games, seed, runner, steps))
    _save(console, winvalue.save, model, out)
    fit = model["fit"]
    console.print(
        f"{model['games_finished']:,} games ({model['games_unfinished']:,} unfinished), "
        f"{model['hands']:,} hands in {model['self_play_seconds']} s; fitted in "
        f"{model['fit_seconds']} s: log loss {fit['log_loss']:.4f} (cell frequencies "
        f"{fit['log_loss_cells']:.4f}, one constant {fit['log_loss_constant']:.4f}); "
        f"1 win = {model['scale']} points; wrote {out}"
    )


@train_app.command("bid-value")
def bid_value(
    deals: Annotated[
        int,
        typer.Option("--deals", "-n", min=4, max=100_000_000, help="Deals per table."),
    ] = 500_000,
    seed: Seed = 1,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the model (JSON).")] = (
        Path("bid_value.json")
    ),
    workers: Workers = 0,
    ray: Ray = None,
    checkpoint: Checkpoint = None,
) -> None:
    """Learn how many points a hand takes pitching each suit (what the heuristic, and
    every search's rollouts, bid by): every seat pitches every suit it holds on
    self-play deals of every table, then one linear model per table, written as
    JSON. Ship it as src/pitch/fastcore/bid_value.json."""
    from pitch.training import bidvalue

    console = Console(stderr=True)
    _writable(out)
    with _progress(console, "self-play") as progress:
        runner = _runner(bidvalue, workers, ray, checkpoint, "bid-value", progress)
        model = _train(console, lambda: bidvalue.train(deals, seed, runner))
    _save(console, bidvalue.save, model, out)
    rows = sum(h["rows"] for h in model["holdout"])
    gains = ", ".join(
        f"{p}{'p' if not pairs else ' pairs'} {h['mse']:.3f}/{h['mse_formula']:.3f}"
        for (p, pairs), h in zip(model["tables"], model["holdout"], strict=True)
    )
    console.print(
        f"{deals:,} deals a table in {model['self_play_seconds']} s; on {rows:,.0f} "
        f"held-out hands, squared error of the model / of the formula: {gains}; wrote {out}"
    )


BOT = "pimc:rollout=heuristic"
"""Whose cards the card model learns by default: `master` with the heuristic's rollouts
(the shipped model was learned from its games; a second round learned from `master`
with the learned rollouts did worse, docs/results/play-model/PLAN.md, step 7)."""
TableName = Annotated[
    list[str] | None,
    typer.Option(
        "--table",
        help=f"A table to self-play (repeatable): {', '.join(TABLE_KINDS)}. Default: all.",
    ),
]


@train_app.command("play-model")
def play_model(
    records: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Game records (JSON Lines, e.g. from pitch arena --out) to learn from "
            "instead of self-play."
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option("--games", "-n", min=5, max=1_000_000, help="Self-play games per table."),
    ] = 400,  # all seven tables in under 2 CPU-hours (docs/benchmarks.md)
    table: TableName = None,
    bot: Annotated[
        str, typer.Option(help="The bot whose cards self-play learns, in every seat.")
    ] = BOT,
    seed: Seed = 1,
    imitate: Annotated[
        str | None,
        typer.Option(help="Learn only the seats this bot played (as the records name it)."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the model (JSON).")] = (
        Path("play_model.json")
    ),
    workers: Workers = 0,
    ray: Ray = None,
    checkpoint: Checkpoint = None,
) -> None:
    """Learn which card a strong player chooses (the `learned` rollout policy of
    `pimc:rollout=learned`): seeded self-play of --bot on each --table (or the RECORDS
    given), then at each card once trump is set a conditional logit per table over the
    legal cards' features, judged on every fifth game. Ship it as
    src/pitch/fastcore/play_model.json."""
    from pitch.bots.registry import make_bot, parse_bot_spec
    from pitch.engine.errors import RecordError
    from pitch.engine.records import read_records
    from pitch.training import playmodel

    console = Console(stderr=True)
    _writable(out)
    tables = table or list(TABLE_KINDS)
    for name in tables:
        if name not in TABLE_KINDS:
            raise typer.BadParameter(
                f"{name!r} is not a table; choose from {', '.join(TABLE_KINDS)}",
                param_hint="--table",
            )
    try:  # its options too, here rather than in a worker's first game
        if parse_bot_spec(bot).name != "ext":
            make_bot(bot)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--bot") from None
    if records and (table or checkpoint or ray):
        raise typer.BadParameter(
            "--table, --checkpoint and --ray are for self-play; RECORDS are fitted as they are"
        )
    source: dict[str, Any]
    played: list[dict[str, Any]] = []
    if records:
        for path in records:
            try:
                played += read_records(path)
            except (OSError, UnicodeDecodeError, RecordError) as e:
                console.print(f"[red]cannot read {path}: {e}[/red]")
                raise typer.Exit(2) from None
        source = {"source": "records"}
    else:
        with _progress(console, "self-play games") as progress:
            runner = _runner(playmodel, workers, ray, checkpoint, "play-model", progress)
            played = _train(console, lambda: playmodel.self_play(games, seed, tables, runner, bot))
        source = {
            "source": "self-play",
            "seed": seed,
            "bot": bot,
            "games_per_table": games,
            "self_play_tables": tables,
        }
    with _progress(console, "reading the decisions") as progress:
        model = _train(
            console,
            lambda: playmodel.train(
                played, imitate, lambda done: progress(done, len(played)), source
            ),
        )
    _save(console, playmodel.save, model, out)
    figures = ", ".join(
        f"{p}{'p' if not pairs else ' pairs'} {h['agree']:.3f}/{h['agree_heuristic']:.3f}"
        for (p, pairs), h in zip(model["tables"], model["holdout"], strict=True)
        if h["decisions"]
    )
    console.print(
        f"{sum(model['decisions']):,} decisions from {len(played):,} games; on held-out "
        f"games, the chosen card is the model's / the heuristic's top card: {figures}; "
        f"wrote {out}"
    )
