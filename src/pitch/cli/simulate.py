"""``pitch simulate``: bots play whole games; records go out as JSON Lines."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Annotated, TextIO

import typer
from rich.console import Console
from rich.progress import Progress

from pitch.bots import make_bot, parse_bot_spec, play_game
from pitch.cli.options import RuleOption, rules_from_options
from pitch.engine import dumps, game_record


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)


def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 10,
    players: Annotated[int, typer.Option(min=2, max=7, help="Players (2-7).")] = 4,
    partnerships: Annotated[bool, typer.Option(help="Partners: seats 0+2 vs 1+3.")] = False,
    target: Annotated[int, typer.Option(min=1, help="Points to win (7, 11, 15, 21...).")] = 7,
    preset: Annotated[str | None, typer.Option(help="Named rules preset.")] = None,
    rule: RuleOption = None,
    seed: Annotated[int | None, typer.Option(help="Seed: the same seed, the same games.")] = None,
    bots: Annotated[
        str, typer.Option(help="Bot per seat, comma-separated (one name: every seat).")
    ] = "random",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="JSON Lines file (default: stdout).")
    ] = None,
    max_hands: Annotated[
        int,
        typer.Option(
            min=1,
            help="Stop a game unfinished (winner null) after this many hands; random "
            "bidders can go far below zero and play for a long time.",
        ),
    ] = 1000,
) -> None:
    """Play whole games between bots and write their records (JSON Lines)."""
    rules = rules_from_options(players, partnerships, target, preset, rule)
    names = [b for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise typer.BadParameter(
            f"give one bot or {rules.players} (one per seat), not {len(names)}", param_hint="--bots"
        )
    try:
        specs = [parse_bot_spec(b) for b in names]
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--bots") from None
    master = random.Random(seed)
    err = Console(stderr=True)
    wins = [0] * rules.num_sides
    unfinished = 0
    total_hands = 0
    t0 = time.perf_counter()
    sink: TextIO = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task("simulating", total=games)
            for _g in range(games):
                game_seed = master.getrandbits(64)
                rng = random.Random(game_seed)
                seat_bots = [
                    make_bot(spec, rng=random.Random(rng.getrandbits(64))) for spec in specs
                ]
                outcome = play_game(rules, seat_bots, rng, max_hands=max_hands)
                st = outcome.state
                rec = game_record(
                    st, bots=[str(s) for s in specs], seed=game_seed if seed is not None else None
                )
                sink.write(dumps(rec) + "\n")
                total_hands += len(st.history)
                if st.winner is None:
                    unfinished += 1
                else:
                    wins[st.winner] += 1
                progress.advance(task)
    finally:
        if out:
            sink.close()
    secs = time.perf_counter() - t0
    side = "team" if rules.partnerships else "seat"
    tally = ", ".join(f"{side} {i}: {w}" for i, w in enumerate(wins))
    err.print(
        f"{games} games ({rules.players} players{', partners' if rules.partnerships else ''}, "
        f"target {rules.target}) in {secs:.2f} s; {total_hands} hands; wins {tally}"
        + (f"; {unfinished} unfinished after {max_hands} hands" if unfinished else ""),
        highlight=False,
    )
