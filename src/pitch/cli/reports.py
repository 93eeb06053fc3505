"""``pitch reports list``: the reports players filed, for the operator (docs/server.md,
"Friends and safety")."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pitch.cli.db import DB_OPTION, read_store


def register(app: typer.Typer) -> None:
    reports = typer.Typer(help="Reports players filed about other players.", no_args_is_help=True)
    reports.command("list")(list_reports)
    app.add_typer(reports, name="reports")


def list_reports(
    db: Annotated[str | None, DB_OPTION] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object a line, the game's record in it.")
    ] = False,
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="The newest this many.")] = 1000,
) -> None:
    """Print the newest reports: when, who reported whom (the name they saw, the seat,
    and the account or "guest"), why, the chat line, and the game's record as it
    stood when the report was made (with --json, all of it)."""
    from pitch.store.social import SocialCaps, SocialStore

    rows = read_store(db, "reports list", lambda d: SocialStore(d, SocialCaps()).reports(limit))
    for r in rows:
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "id": r.id,
                        "at": r.created_at.isoformat(),
                        "reporter": r.reporter,
                        "reported": r.reported,
                        "reported_name": r.name,
                        "reported_seat": r.seat,
                        "reason": r.reason,
                        "text": r.text,
                        "table": r.table,
                        "chat": r.chat,
                        "record": r.record,
                    },
                    ensure_ascii=False,
                )
            )
            continue
        who = r.reporter if r.reporter is not None else "(a deleted account)"
        if r.seat is None:
            whom = f"{r.name} (account {r.reported})"
        else:  # by the name at the table: whose account it is, if anyone's
            account = "guest" if r.reported is None else f"account {r.reported}"
            whom = f"{r.name} (seat {r.seat}, {account})"
        typer.echo(f"#{r.id} {r.created_at:%Y-%m-%d %H:%M} UTC  {who} reported {whom}")
        typer.echo(f"  reason: {r.reason}" + (f": {r.text}" if r.text else ""))
        if r.chat is not None:
            typer.echo(f"  chat line: {r.chat}")
        if r.table is not None:
            hands = len((r.record or {}).get("hands", []))
            status = (r.record or {}).get("status", "?")
            typer.echo(f"  table {r.table} ({status}, {hands} hands finished); record:")
            typer.echo("  " + json.dumps(r.record, ensure_ascii=False, separators=(",", ":")))
    if not rows and not as_json:
        typer.echo("no reports")
