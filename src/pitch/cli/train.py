"""``pitch train``: learn from self-play games of the compiled simulator."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pitch.engine.errors import PitchError

train_app = typer.Typer(
    help="Train the bots' learned models from self-play (docs/bots.md).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(train_app, name="train")


@train_app.command("win-value")
def win_value(
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=10_000_000, help="Self-play games per table and target."
        ),
    ] = 100_000,
    seed: Annotated[int, typer.Option(help="Seed: the same seed, the same model.")] = 1,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the model (JSON).")] = (
        Path("win_value.json")
    ),
    workers: Annotated[
        int, typer.Option(min=0, max=256, help="Threads playing games (0: all local cores).")
    ] = 0,
    ray: Annotated[
        str | None,
        typer.Option(help="Play the games as Ray tasks: a cluster ADDRESS, or 'auto'/'local'."),
    ] = None,
    steps: Annotated[int, typer.Option(min=1, max=100_000, help="Training steps.")] = 3000,
) -> None:
    """Learn how likely a side is to win the game from each score (what `master`
    plays for, `pimc:win_weight`): self-play with the heuristic on every table and
    target, then a small network fitted to the outcomes, written as JSON."""
    from pitch.bots import winvalue

    console = Console(stderr=True)
    try:  # a bad --out fails now, not after minutes of self-play
        out.parent.mkdir(parents=True, exist_ok=True)
        writable = os.access(out.parent, os.W_OK) and not out.is_dir()
    except OSError:
        writable = False
    if not writable:
        raise typer.BadParameter(f"cannot write {out}", param_hint="--out")
    if ray is not None:
        from pitch.bots.ray_backend import RayUnavailable

        try:
            runner = winvalue.run_ray(ray)
        except RayUnavailable as e:
            raise typer.BadParameter(str(e), param_hint="--ray") from None
    else:
        runner = winvalue.run_threads(workers or os.cpu_count() or 1)
    try:
        model = winvalue.train(games, seed, runner, steps)
    except PitchError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(2) from None
    try:
        winvalue.save(model, out)
    except OSError as e:
        console.print(f"[red]cannot write {out}: {e.strerror or e}[/red]")
        raise typer.Exit(2) from None
    fit = model["fit"]
    console.print(
        f"{model['games_finished']:,} games ({model['games_unfinished']:,} unfinished), "
        f"{model['hands']:,} hands in {model['self_play_seconds']} s; fitted in "
        f"{model['fit_seconds']} s: log loss {fit['log_loss']:.4f} (cell frequencies "
        f"{fit['log_loss_cells']:.4f}, one constant {fit['log_loss_constant']:.4f}); "
        f"1 win = {model['scale']} points; wrote {out}"
    )
