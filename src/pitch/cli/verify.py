"""``pitch verify``: replay records by the rules and report every bad one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pitch.engine import iter_records, verify_record


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)


def verify(
    files: Annotated[list[Path], typer.Argument(help="Record files (JSON Lines or JSON).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems.")] = False,
) -> None:
    """Check that every game in FILES is legal and correctly scored (exit 1 if not)."""
    out = Console(highlight=False, soft_wrap=True)
    checked = bad = 0
    unreadable = False
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            out.print(f"{path}: cannot read: {e}")
            unreadable = True
            continue
        for item in iter_records(text):
            checked += 1
            where = f"{path}: game {item.index} (line {item.line})"
            if item.error is not None:
                bad += 1
                out.print(f"{where}: {item.error}")
                continue
            problem = verify_record(item.record)
            if problem is not None:
                bad += 1
                out.print(f"{where}: {problem}")
    if not quiet or bad:
        out.print(f"{checked} games checked, {checked - bad} good, {bad} bad")
    if bad or unreadable:
        raise typer.Exit(1)
