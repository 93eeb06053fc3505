"""``pitch serve``: run the online game server (FastAPI on uvicorn)."""

from __future__ import annotations

import cProfile
import dataclasses
import gc
import os
import signal
import time
from typing import Annotated

import typer

from pitch.cli.options import rules_from_options


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB. "
            "Default: SQLite in the user's data directory.",
        ),
    ] = None,
    public_url: Annotated[
        str | None, typer.Option(help="Base URL of invite links (default: the request's host).")
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="Bot worker processes (PITCH_BOT_WORKERS; default 2)."),
    ] = None,
    instance: Annotated[
        str | None,
        typer.Option(
            help="This process's name when several share one database (PITCH_INSTANCE; "
            "default 'default'): each restores only the tables it served.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies whose X-Forwarded-For/-Proto are believed, comma-separated "
            "addresses or networks (PITCH_FORWARDED_ALLOW_IPS; default: none, so "
            "clients cannot choose the address the limits count them by).",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may create tables and open sockets here "
            "(repeatable; PITCH_ALLOWED_ORIGINS). This site and --public-url always may.",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            metavar="KEY=VALUE",
            help="A table option every new table starts from (repeatable), e.g. smudge=true;"
            " a request's preset and rules change it, and the lobby's form shows it."
            " Keys as for 'pitch play --rule' (docs/rules.md).",
        ),
    ] = None,
) -> None:
    """Serve tables for friends and bots over HTTP and WebSockets."""
    try:
        import uvicorn

        from pitch.server import Settings, create_app
    except ImportError as e:
        typer.echo(
            f"pitch serve needs the server extra: pip install 'pitch[server]' ({e})", err=True
        )
        raise typer.Exit(2) from None
    from sqlalchemy.exc import ArgumentError, OperationalError

    from pitch.server.api.guard import ConnectionLimits, guarded_http
    from pitch.server.botplay.workers import QUICK_WORKERS
    from pitch.server.realtime.sockets import guarded_ws, raise_nofile, request_reserve, socket_cap
    from pitch.server.settings import SettingsError
    from pitch.server.tables.protocol import MAX_MESSAGE_BYTES
    from pitch.store import InstanceTaken

    rules = rules_from_options(4, False, 7, None, rule)
    try:
        settings = Settings(db_url=db, public_url=public_url, rules=rules)
        if bot_workers is not None:  # else PITCH_BOT_WORKERS or the default
            settings = dataclasses.replace(settings, bot_workers=bot_workers)
    except SettingsError as e:
        typer.echo(f"pitch serve: {e}", err=True)
        raise typer.Exit(2) from None
    # The soft limit a shell or a service manager hands down (often 1024) is far below
    # what a server of sockets needs, and nothing but us raises it.
    before, nofile = raise_nofile()
    try:
        sockets = socket_cap(nofile, settings.bot_workers + QUICK_WORKERS, settings.max_sockets)
    except ValueError as e:
        typer.echo(f"pitch serve: {e}", err=True)
        raise typer.Exit(2) from None
    settings = dataclasses.replace(settings, max_sockets=sockets)
    raised = f"raised from {before} to {nofile}" if nofile > before else f"{nofile}"
    typer.echo(f"pitch serve: open files {raised}; at most {sockets} sockets", err=True)
    if instance is not None:
        settings = dataclasses.replace(settings, instance=instance)
    if forwarded_allow_ips is not None:
        ips = tuple(x.strip() for x in forwarded_allow_ips.split(",") if x.strip())
        settings = dataclasses.replace(settings, forwarded_allow_ips=ips)
    if allowed_origin:
        settings = dataclasses.replace(settings, allowed_origins=tuple(allowed_origin))
    try:
        limits = ConnectionLimits(
            per_address=settings.max_connections_per_client,
            header_seconds=settings.header_seconds,
            trusted=settings.forwarded_allow_ips,
        )
    except ValueError as e:
        typer.echo(f"--forwarded-allow-ips: {e}", err=True)
        raise typer.Exit(2) from None
    if not 1 <= len(settings.instance) <= 64:
        typer.echo("--instance (PITCH_INSTANCE) must be 1..64 characters", err=True)
        raise typer.Exit(2)
    try:
        app = create_app(settings)
    except InstanceTaken as e:
        typer.echo(f"pitch serve: {e}", err=True)
        raise typer.Exit(2) from None
    except (ArgumentError, OperationalError, OSError, ValueError) as e:
        typer.echo(f"cannot open the database {db!r}: {e}", err=True)
        raise typer.Exit(2) from None
    # uvicorn shuts down gracefully on SIGTERM/SIGINT and then raises the signal again
    # with the handler it found: make that a clean exit, so what follows still runs.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _exit_cleanly)
    # Every action allocates a few hundred short-lived containers (messages, futures):
    # collect the youngest generation less often (the default, 700, runs it several
    # times per action under load).
    gc.set_threshold(20_000, 20, 20)
    prof = _start_profile()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level=log_level,
            http=guarded_http(limits),
            # The app reads X-Forwarded-For itself (``guard.ForwardedFor``, from
            # --forwarded-allow-ips only): uvicorn's own would believe 127.0.0.1's.
            proxy_headers=False,
            ws=guarded_ws(app.state.service.sockets, limits.release),
            # Past the sockets and the reserve for requests every request is a 503,
            # long before the process runs out of descriptors.
            limit_concurrency=sockets + request_reserve(nofile),
            timeout_keep_alive=5,
            # SIGTERM: sockets are closed and the last requests get this long.
            timeout_graceful_shutdown=3,
            ws_max_size=4 * MAX_MESSAGE_BYTES,
            ws_ping_interval=settings.ws_ping_seconds,
            ws_ping_timeout=20,
            # Compressing every state message costs more CPU than the bytes are worth
            # on a busy server (a state is ~1.5 kB); see docs/benchmarks.md.
            ws_per_message_deflate=False,
        )
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    finally:
        if prof is not None:
            prof.disable()
            prof.dump_stats(os.environ["PITCH_PROFILE"])


def _exit_cleanly(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def _start_profile() -> cProfile.Profile | None:
    """``PITCH_PROFILE=FILE``: profile the server (its event loop's thread; the
    database thread mostly waits on SQLite) and write FILE when it stops
    (``scripts/bench_server.py --profile`` sets it)."""
    if not os.environ.get("PITCH_PROFILE"):
        return None
    # CPU time of this thread, not wall time: on a shared machine wall time charges
    # whatever function was running when the OS preempted the process.
    prof = cProfile.Profile(time.thread_time)
    prof.enable()
    return prof
