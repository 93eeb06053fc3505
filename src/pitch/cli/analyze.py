"""``pitch analyze``: the master bot's view of every decision of a recorded game."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from pitch.bots.analysis import (
    DEALS,
    MAX_DEALS,
    MAX_TIME,
    TIME,
    Decision,
    GameAnalysis,
    analyze,
    check_budget,
    to_json,
)
from pitch.engine import PitchError, RecordError, action_str, read_records

SPARKS = "▁▂▃▄▅▆▇█"
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)


def analyze_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON or JSON Lines).")],
    game: Annotated[
        int | None, typer.Option(help="Which game in the file (0 = first; default: all).")
    ] = None,
    seconds: Annotated[
        float,
        typer.Option("--time", help=f"Seconds each decision may take at most (0-{MAX_TIME:g})."),
    ] = TIME,
    deals: Annotated[
        int,
        typer.Option(help=f"Sampled deals per card decision, bids 3x (1-{MAX_DEALS})."),
    ] = DEALS,
    seed: Annotated[int, typer.Option(help="Seed: the same seed, the same analysis.")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object (docs/bots.md) instead of text.")
    ] = False,
) -> None:
    """For every decision in a recorded game: the win chance of each legal action from
    the seat's own view, the loss of the action taken, marks and each player's accuracy."""
    try:
        check_budget(deals, seconds)
    except PitchError as e:
        hint = "--deals" if str(e).startswith("deals") else "--time"
        raise typer.BadParameter(str(e), param_hint=hint) from None
    records = load(file, game)
    err = Console(stderr=True, highlight=False)
    results: list[GameAnalysis] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=err, transient=True, disable=as_json or not err.is_terminal
    ) as bar:
        for index, record in records:
            task = bar.add_task(f"game {index}", total=None)

            def tick(done: int, total: int, task: Any = task) -> None:
                bar.update(task, completed=done, total=total)

            try:
                results.append(
                    analyze(
                        record, game=index, deals=deals, seconds=seconds, seed=seed, progress=tick
                    )
                )
            except PitchError as e:
                typer.echo(f"{file}, game {index}: {e}", err=True)
                raise typer.Exit(1) from None
    cut = sum(d.cut for a in results for d in a.decisions)
    if cut:
        typer.echo(
            f"{cut} decision(s) reached --time before their deals were done: the figures may "
            "change from run to run (raise --time or lower --deals).",
            err=True,
        )
    if as_json:
        sys.stdout.write(json.dumps(to_json(results), ensure_ascii=False) + "\n")
        return
    for k, ((_, record), result) in enumerate(zip(records, results, strict=True)):
        if k:
            typer.echo("")
        write_text(result, names_of(record, result), typer.echo)


def load(file: Path, game: int | None) -> list[tuple[int, dict[str, Any]]]:
    """The games of ``file`` to analyse, with their indices (a usage error if none)."""
    try:
        records = read_records(file)
    except (RecordError, OSError, UnicodeDecodeError) as e:
        raise typer.BadParameter(str(e), param_hint="FILE") from None
    if not records:
        raise typer.BadParameter(f"{file} holds no game", param_hint="FILE")
    if game is None:
        return list(enumerate(records))
    if not 0 <= game < len(records):
        raise typer.BadParameter(
            f"{file} holds {len(records)} game(s); --game must be 0..{len(records) - 1}",
            param_hint="--game",
        )
    return [(game, records[game])]


def names_of(record: dict[str, Any], result: GameAnalysis) -> list[str]:
    names = record.get("players")
    seats = max((d.seat for d in result.decisions), default=-1) + 1
    if isinstance(names, list) and all(isinstance(x, str) for x in names) and len(names) >= seats:
        return [x[:40] for x in names]
    return [f"Seat {s}" for s in range(max(seats, len(result.players)))]


def sparkline(values: list[float]) -> str:
    """``values`` (0..1) as a line of block characters, one a value."""
    top = len(SPARKS) - 1
    return "".join(SPARKS[min(top, max(0, math.floor(v * len(SPARKS))))] for v in values)


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def line_of(d: Decision, names: list[str]) -> str:
    """One decision in a line: where, who, what, its win chance, and the best if better."""
    where = f"h{d.hand + 1} " + ("bid" if d.trick is None else f"t{d.trick + 1}")
    taken = next(o for o in d.options if o.action == d.action)
    text = f"  {where:<7} {names[d.seat]:<12} {action_str(d.action):<6} {pct(taken.value)}"
    text += f" {taken.points:+5.2f} pts"
    if not d.choice:
        return text + "  (forced)"
    if d.best != d.action:
        best = next(o for o in d.options if o.action == d.best)
        text += f"  best {action_str(d.best)} {pct(best.value)}  -{100 * d.loss:.1f}"
    if d.mark:
        text += f"  {d.mark}"
    return text


def write_text(result: GameAnalysis, names: list[str], echo: Callable[[str], None]) -> None:
    echo(f"Game {result.game}: {len(result.decisions)} decisions")
    echo("  where   player       action  win   hand   (win chance of the side, points)")
    for d in result.decisions:
        echo(line_of(d, names))
    echo("")
    echo("Players (accuracy 0-100; losses in win chance, percentage points):")
    for p in result.players:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.1f}"
        counts = ", ".join(f"{PLURAL[k]} {n}" for k, n in p.counts.items())
        echo(f"  {names[p.seat]:<12} accuracy {acc:>5}  {counts}")
        for d in p.worst:
            echo(
                f"    -{100 * d.loss:.1f}: hand {d.hand + 1}, "
                + ("bid" if d.trick is None else f"trick {d.trick + 1}")
                + f": {action_str(d.action)}, best {action_str(d.best)}"
            )
    echo("")
    echo("Win chance after each bid and trick:")
    points = [d for d in result.decisions if d.trick is None or d.trick_end]
    for side in range(result.sides):
        seats = [s for s in range(len(names)) if _side(result, s) == side]
        who = " + ".join(names[s] for s in seats) or f"Side {side}"
        line = sparkline([d.chances[side] for d in points])
        end = pct(points[-1].chances[side]) if points else ""
        echo(f"  {who:<12} {line} {end}")


def _side(result: GameAnalysis, seat: int) -> int:
    """The side of ``seat`` (as its decisions say; a seat with none: by the solo rule)."""
    for d in result.decisions:
        if d.seat == seat:
            return d.side
    return seat % result.sides
