"""``pitch arena BOT_A BOT_B``: duplicate matches between two bots, with intervals."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pitch.arena.match import ArenaConfig, DealResult, Summary, run_local, summarize
from pitch.bots.registry import parse_bot_spec
from pitch.cli.options import RuleOption, rules_from_options


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)


def arena(
    bot_a: Annotated[str, typer.Argument(help="Bot A, e.g. heuristic or ismcts:time=1.0")],
    bot_b: Annotated[str, typer.Argument(help="Bot B, e.g. random or pimc:samples=40")],
    deals: Annotated[
        int, typer.Option("--deals", "-n", min=1, help="Seeded games, each replayed rotated.")
    ] = 100,
    players: Annotated[int, typer.Option(min=2, max=7, help="Players (2-7).")] = 4,
    partnerships: Annotated[bool, typer.Option(help="Partners: seats 0+2 vs 1+3.")] = False,
    target: Annotated[int, typer.Option(min=1, help="Points to win (7, 11, 15, 21...).")] = 7,
    preset: Annotated[str | None, typer.Option(help="Named rules preset.")] = None,
    rule: RuleOption = None,
    seed: Annotated[int, typer.Option(help="Match seed: the same seed, the same deals.")] = 1,
    workers: Annotated[int, typer.Option(min=0, help="Worker processes (0: all local cores).")] = 0,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="Run on a Ray cluster: its ADDRESS, or 'auto'/'local'."),
    ] = None,
    max_hands: Annotated[
        int, typer.Option(min=1, help="Stop a game unfinished after this many hands.")
    ] = 200,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write every game's record (JSON Lines).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    keep_ext: Annotated[
        bool,
        typer.Option(
            "--keep-ext",
            help="Keep each ext: program running from deal to deal (one per worker, rotation "
            "and seat) instead of starting it for every game: much faster when its start-up "
            "is slow. A seeded program is then reproducible only with --workers 1.",
        ),
    ] = False,
) -> None:
    """Play BOT_A against BOT_B on duplicate deals and report points per hand (with the
    95% interval of the paired difference), game wins, bidding and thinking time."""
    rules = rules_from_options(players, partnerships, target, preset, rule)
    try:
        cfg = ArenaConfig(
            bot_a=bot_a,
            bot_b=bot_b,
            rules=rules,
            deals=deals,
            seed=seed,
            max_hands=max_hands,
            records=out is not None,
        )
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if keep_ext and ray is not None:
        raise typer.BadParameter("--keep-ext keeps programs in local workers; not with --ray")
    if keep_ext and "ext" not in {parse_bot_spec(b).name for b in (bot_a, bot_b)}:
        raise typer.BadParameter("--keep-ext is for external bots (ext:...); neither bot is one")
    err = Console(stderr=True)
    indices = list(range(deals))
    if ray is not None:
        from pitch.arena.ray_runner import RayUnavailable, run_ray

        try:
            source = run_ray(cfg, indices, ray)
        except RayUnavailable as e:
            err.print(f"error: {e}", highlight=False)
            raise typer.Exit(2) from None
    else:
        n = workers or os.cpu_count() or 1
        source = run_local(cfg, indices, min(n, deals), keep_ext=keep_ext)
    results: list[DealResult] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(f"{bot_a} vs {bot_b}", total=deals)
            for r in source:
                results.append(r)
                bar.advance(task)
    except ValueError as e:  # a bot's options rejected inside a worker
        err.print(f"error: {e}", highlight=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        # Ctrl-C (or SIGTERM): report the deals that finished, which are whole pairs.
        interrupted = True
        close = getattr(source, "close", None)
        if close is not None:
            close()
    finally:
        signal.signal(signal.SIGTERM, previous)
    if not results:
        err.print("interrupted before any deal finished", highlight=False)
        raise typer.Exit(130)
    if interrupted:
        err.print(f"interrupted: {len(results)} of {deals} deals finished", highlight=False)
    summary = summarize(cfg, results, interrupted=interrupted)
    if out is not None:
        with out.open("w", encoding="utf-8") as f:
            for r in sorted(results, key=lambda r: r.index):
                for line in r.records:
                    f.write(line + "\n")
    if as_json:
        typer.echo(json.dumps(summary.to_dict()))
    else:
        out_console = Console()
        if not out_console.is_terminal:
            out_console = Console(width=160)
        _print(summary, out_console)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _print(s: Summary, console: Console) -> None:
    d = s.to_dict()
    r = s.config.rules
    console.print(
        f"{s.deals} deals x {len(d['bots']) and d['games'] // max(1, s.deals)} rotations = "
        f"{d['games']} games, {r.players} players"
        f"{' (partners)' if r.partnerships else ''}, target {r.target}, seed {s.config.seed}"
        + (f"; {s.unfinished} games unfinished" if s.unfinished else ""),
        highlight=False,
    )
    t = Table()
    for col in (
        "bot",
        "pts/hand",
        "games won",
        "win rate [95%]",
        "bids won",
        "made",
        "set",
        "avg bid",
        "s/decision",
    ):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for k, b in enumerate(d["bots"]):
        w = s.win_rate[k]
        t.add_row(
            f"{b['label']}: {b['bot']}",
            f"{b['points_per_hand']:+.3f}",
            f"{b['games_won']}/{b['games']}",
            f"{w.estimate:.3f} [{w.low:.3f}, {w.high:.3f}]",
            str(b["bids_won"]),
            str(b["contracts_made"]),
            str(b["contracts_set"]),
            _fmt(b["average_bid"], ".2f"),
            _fmt(b["seconds_per_decision"], ".4f"),
        )
    console.print(t)
    console.print(f"A - B points per hand, 95% interval: {s.diff}", highlight=False)
    console.print(
        f"A - B games won per game, 95% interval: {s.win_diff} (paired by deal)", highlight=False
    )
