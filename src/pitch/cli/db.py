"""``pitch db backup FILE`` / ``pitch db restore FILE``: the whole database, whatever
tables it has (docs/deploy.md, "Backups")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

if TYPE_CHECKING:
    from pitch.store import Database

T = TypeVar("T")

DB_OPTION = typer.Option(
    help="Database URL as for 'pitch serve' (PITCH_DB; default: SQLite in the user's "
    "data directory).",
)


def register(app: typer.Typer) -> None:
    db = typer.Typer(help="Back up and restore the server's database.", no_args_is_help=True)
    db.command("backup")(backup)
    db.command("restore")(restore)
    app.add_typer(db, name="db")


def _url(db: str | None) -> str:
    from pitch.store import default_url

    return db or default_url()


def read_store(db: str | None, command: str, read: Callable[[Database], T]) -> T:
    """``read(database)`` on the server's database, opened without upgrading it (an
    operator's read never migrates a database a server may be running on); a bad URL
    or an unreachable database ends the command with its error (exit 2)."""
    from sqlalchemy.exc import ArgumentError, OperationalError, ProgrammingError, SQLAlchemyError

    from pitch.store import Database

    try:
        database = Database(_url(db), migrate=False)
        try:
            return read(database)
        finally:
            database.close()
    except (ArgumentError, SQLAlchemyError) as e:
        cause = getattr(e, "orig", None) or e  # the driver's words, not the SQL sent
        hint = ""
        if isinstance(e, (OperationalError, ProgrammingError)) and "table" in str(cause):
            hint = " (not a database this version of pitch has served: 'pitch serve' upgrades it)"
        typer.echo(f"pitch {command}: {cause}{hint}", err=True)
        raise typer.Exit(2) from None


def backup(
    file: Annotated[Path, typer.Argument(help="The backup file to write.")],
    db: Annotated[str | None, DB_OPTION] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Copy the whole database to FILE, safely while a server runs.

    SQLite: the online backup API, checked and renamed into place. PostgreSQL: pg_dump -Fc.
    """
    import sqlite3

    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from pitch.store.backup import BackupError, backup_pg, backup_sqlite, sqlite_file

    try:
        url = _url(db)
        path = sqlite_file(url)
        done = backup_sqlite(path, file, force=force) if path else backup_pg(url, file, force=force)
    # Past the checks, what can still fail (a full disk) ends as plainly.
    except (BackupError, ArgumentError, SQLAlchemyError, sqlite3.Error, OSError) as e:
        typer.echo(f"pitch db backup: {e}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"backed up to {file} (schema revision {done.revision})")


def restore(
    file: Annotated[Path, typer.Argument(help="A backup written by 'pitch db backup'.")],
    db: Annotated[str | None, DB_OPTION] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Restore even though a server seems to hold the database."),
    ] = False,
) -> None:
    """Replace the database with the backup FILE (servers stopped first).

    An older backup is upgraded; SQLite keeps the replaced file as DB.bak-<time>.
    """
    import sqlite3

    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from pitch.store.backup import BackupError, restore_pg, restore_sqlite, sqlite_file

    try:
        url = _url(db)
        path = sqlite_file(url)
        done = (
            restore_sqlite(file, path, force=force) if path else restore_pg(url, file, force=force)
        )
    except (BackupError, ArgumentError, SQLAlchemyError, sqlite3.Error, OSError) as e:
        typer.echo(f"pitch db restore: {e}", err=True)
        raise typer.Exit(2) from None
    if done.replaced is not None:
        typer.echo(f"the database replaced is kept as {done.replaced}")
    if done.was is not None:
        typer.echo(f"upgraded the backup from schema revision {done.was} to {done.revision}")
    typer.echo(f"restored {file} (schema revision {done.revision})")
