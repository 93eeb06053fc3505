"""``pitch ratings flagged``: rated games two or more of whose rated seats were taken
from one client network, for the operator to look at (docs/server.md, "Ratings")."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pitch.cli.db import DB_OPTION, read_store


def register(app: typer.Typer) -> None:
    ratings = typer.Typer(help="Ratings, for the operator.", no_args_is_help=True)
    ratings.command("flagged")(list_flagged)
    app.add_typer(ratings, name="ratings")


def list_flagged(
    db: Annotated[str | None, DB_OPTION] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object a line.")] = False,
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="The newest this many.")] = 1000,
) -> None:
    """Print the newest rated games flagged "shared address" (two or more of the rated
    seats taken from one IPv4 address or IPv6 /64): the table, when it was rated, its
    kind, and the rated accounts' names. They were rated as usual: one address may be
    a household, or one player with two accounts."""
    from pitch.server.ratings.store import RatingStore

    rows = read_store(db, "ratings flagged", lambda d: RatingStore(d).flagged(limit))
    for g in rows:
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "table": g.table_id,
                        "at": g.rated_at.isoformat(),
                        "kind": g.kind,
                        "accounts": list(g.names),
                    },
                    ensure_ascii=False,
                )
            )
        else:
            typer.echo(
                f"{g.table_id}  {g.rated_at:%Y-%m-%d %H:%M} UTC  {g.kind}  " + ", ".join(g.names)
            )
    if not rows and not as_json:
        typer.echo("no flagged games")
