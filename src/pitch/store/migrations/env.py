"""Alembic environment: migrations run on the connection :class:`Database` passes in."""

from __future__ import annotations

from alembic import context

from pitch.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the `alembic` command line gets here
    raise RuntimeError("run migrations through pitch.store.Database(url).migrate()")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
