"""``pitch bot LEVEL``: one of our bots as a bot-protocol program (stdin/stdout).

Any host that speaks ``docs/bot-protocol.md`` can then play it, our own included:
``pitch arena 'ext:pitch bot expert' heuristic``.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from typing import Annotated

import typer

from pitch.bots import make_bot, parse_bot_spec
from pitch.bots.protocol import serve


def register(app: typer.Typer) -> None:
    app.command("bot")(bot)


def bot(
    level: Annotated[
        str,
        typer.Argument(help="Bot or level, with options: random, expert, 'ismcts:time=0.5'."),
    ],
    seed: Annotated[
        int | None, typer.Option(help="Seed of the bot's randomness: the same seed, the same play.")
    ] = None,
    time: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help="Seconds per decision, given to bots that think by the clock "
            "(sets their 'time' option). Each decision also stops by the host's 'time' "
            "in its act, less 0.1 s to answer.",
        ),
    ] = None,
) -> None:
    """Play a bot over the bot protocol: JSON Lines on stdin, answers on stdout."""
    try:
        spec = parse_bot_spec(level)
        if time is not None:
            spec = type(spec)(spec.name, {**spec.options, "time": time})
        player = make_bot(spec, rng=random.Random(seed))
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="LEVEL") from None
    # Line-buffered text both ways: each answer must reach the host at once.
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8", line_buffering=True)
    # A closed pipe or ^C means the host went away: nothing is left to answer.
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(player, sys.stdin, sys.stdout, sys.stderr)
