"""``pitch cluster``: several server processes behind nginx on PostgreSQL."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("cluster")(cluster)


def cluster(
    processes: Annotated[int, typer.Option(min=1, max=64, help="Server processes.")] = 3,
    port: Annotated[int, typer.Option(min=1, max=65535, help="nginx's port.")] = 8080,
    host: Annotated[str, typer.Option(help="nginx's address.")] = "127.0.0.1",
    base_port: Annotated[
        int, typer.Option(min=1, max=65000, help="The first process's port (then +1, +2...).")
    ] = 8101,
    db: Annotated[
        str | None,
        typer.Option(
            help="PostgreSQL URL (postgresql+psycopg://USER@HOST/DB). Default: a "
            "throwaway local cluster, deleted on exit (Debian's postgresql package).",
        ),
    ] = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(help="Logs, nginx.conf and cluster.json go here (default: a temp dir)."),
    ] = None,
    prefix: Annotated[str, typer.Option(help="Instance names: PREFIX1, PREFIX2, ...")] = "node",
    bot_workers: Annotated[int, typer.Option(min=1, max=64, help="Bot workers per process.")] = 1,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=1.0, max=3600.0, help="How long a dead process's tables wait to be adopted."
        ),
    ] = 5.0,
    nginx_workers: Annotated[int, typer.Option(min=1, max=64, help="nginx worker processes.")] = 1,
    restart: Annotated[
        bool, typer.Option(help="Start a process that exits again, under its name.")
    ] = False,
    rate: Annotated[
        int,
        typer.Option(
            "--client-rate",
            min=1,
            max=1_000_000,
            help="Requests a second per client address, at nginx (past the burst: 429).",
        ),
    ] = 20,
    burst: Annotated[
        int,
        typer.Option(
            "--client-burst",
            min=0,
            max=1_000_000,
            help="Requests per client address beyond the rate at once (a page load "
            "fetches some 25 files).",
        ),
    ] = 120,
    kill_hung: Annotated[
        bool,
        typer.Option(
            help="Kill a process that answers nothing once its lease has run out "
            "(stopped, hung): its clients reconnect at once to the process that adopts "
            "its tables, instead of after nginx's read timeout."
        ),
    ] = True,
) -> None:
    """Run PROCESSES `pitch serve` processes on one PostgreSQL behind nginx, which
    sends each table's requests to one process by consistent hashing of the table id
    (docs/deploy.md). Stops everything on Ctrl-C or SIGTERM."""
    from pitch.cluster.nginx import nginx_binary
    from pitch.cluster.supervisor import Cluster, ClusterConfig
    from pitch.server.settings import Settings, SettingsError

    if nginx_binary() is None:
        typer.echo("pitch cluster needs nginx: apt-get install nginx", err=True)
        raise typer.Exit(2)
    if db is not None and not db.startswith("postgresql"):
        typer.echo("--db: the processes share one PostgreSQL (postgresql+psycopg://...)", err=True)
        raise typer.Exit(2)
    try:
        # nginx holds clients to the processes' own limits (their PITCH_* settings).
        s = Settings()
    except SettingsError as e:
        typer.echo(f"pitch cluster: {e}", err=True)
        raise typer.Exit(2) from None
    c = Cluster(
        ClusterConfig(
            processes=processes,
            port=port,
            host=host,
            base_port=base_port,
            db=db,
            run_dir=run_dir,
            prefix=prefix,
            bot_workers=bot_workers,
            lease_seconds=lease_seconds,
            nginx_workers=nginx_workers,
            restart=restart,
            kill_hung=kill_hung,
            conn_per_address=s.max_connections_per_client,
            rate=rate,
            burst=burst,
            header_seconds=s.header_seconds,
            body_seconds=s.body_seconds,
        )
    )

    def _stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _stop)
    try:
        c.start()
        typer.echo(f"pitch cluster: {processes} processes behind {c.url} (run dir {c.run_dir})")
        c.watch(lambda m: typer.echo(f"{time.strftime('%H:%M:%S')} {m}"))
    except KeyboardInterrupt:
        pass
    except RuntimeError as e:
        typer.echo(f"pitch cluster: {e}", err=True)
        raise typer.Exit(1) from None
    finally:
        c.stop()
