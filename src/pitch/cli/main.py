"""``pitch``: simulate, verify, bench, and the commands built on them."""

from __future__ import annotations

import typer

from pitch.cli import (
    analyze,
    arena,
    bench,
    bot,
    cluster,
    compare,
    db,
    play,
    ratings,
    reports,
    serve,
    simulate,
    train,
    verify,
)

app = typer.Typer(
    name="pitch",
    help="Pitch (Auction Pitch, Setback): play, simulate and check games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

simulate.register(app)
verify.register(app)
bench.register(app)
play.register(app)
bot.register(app)
arena.register(app)
compare.register(app)
serve.register(app)
cluster.register(app)
db.register(app)
reports.register(app)
ratings.register(app)
train.register(app)
analyze.register(app)


def main() -> None:
    app()
