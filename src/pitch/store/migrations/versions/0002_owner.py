"""Tables remember the server process that serves them (``owner``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE (SQLite has ADD COLUMN): a batch copy of the table would
    # cascade-delete its seats and events.
    op.add_column("tables", sa.Column("owner", sa.String(64), nullable=True))
    op.create_index("ix_tables_owner", "tables", ["owner"])
    # Games under way before owners existed belong to the default instance, which
    # restored every table until now.
    op.execute("UPDATE tables SET owner = 'default' WHERE status <> 'over' AND seq > 0")


def downgrade() -> None:
    op.drop_index("ix_tables_owner", "tables")
    op.drop_column("tables", "owner")  # SQLite 3.35+
