"""``pitch bench``: measure the engine's speed on this machine."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pitch import benchmarks
from pitch.cli.options import rules_from_options


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)


def bench(
    hands: Annotated[int, typer.Option(min=1, help="Hands per measurement.")] = 20000,
    players: Annotated[int, typer.Option(min=2, max=7)] = 4,
    partnerships: Annotated[bool, typer.Option()] = False,
    repeat: Annotated[int, typer.Option(min=1, help="Runs per measure; best is kept.")] = 3,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Random full hands per second, one core: checked API and the compiled core."""
    rules = rules_from_options(players, partnerships, 7)
    res = benchmarks.run(rules, hands, seed, repeat)
    if as_json:
        typer.echo(json.dumps(res))
        return
    typer.echo(
        f"{rules.players} players{' (partners)' if rules.partnerships else ''}, "
        f"{hands} random hands x {repeat} runs, best run, one core:\n"
        f"  checked API : {res['checked_hands_per_s']:>12,.0f} hands/s\n"
        f"  fast path   : {res['fast_hands_per_s']:>12,.0f} hands/s "
        "(GameState in, fastcore.random_playout)"
    )
    if res.get("compiled"):
        typer.echo(
            f"compiled core (numba; first use {res['compile_seconds']:.2f} s incl. compiling "
            "or loading the cache):\n"
            f"  one core    : {res['compiled_hands_per_s']:>12,.0f} hands/s\n"
            f"  one core    : {res['compiled_hands_per_cpu_s']:>12,.0f} hands per CPU-second\n"
            f"  batched     : {res['compiled_batched_hands_per_s']:>12,.0f} hands/s "
            f"({res['workers']} threads)\n"
            f"  playouts    : {res['compiled_playouts_per_s']:>12,.0f} playouts/s "
            "(GameState in, 100 per call)\n"
            f"  heuristic   : {res['compiled_heuristic_playouts_per_s']:>12,.0f} playouts/s "
            "(the same, heuristic for every seat)\n"
            f"  learned     : {res['compiled_learned_playouts_per_s']:>12,.0f} playouts/s "
            "(the same, the learned card model for every seat)\n"
            "rollouts inside the search bots (heuristic rollouts):\n"
            f"  pimc        : {res['pimc_rollouts_per_s']:>12,.0f} rollouts/s\n"
            f"  ismcts      : {res['ismcts_rollouts_per_s']:>12,.0f} rollouts/s"
        )
    else:
        typer.echo(
            "compiled core: numba not installed or disabled "
            "(pip install 'pitch[fast]'); the kernels ran as Python"
        )
