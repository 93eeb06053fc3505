"""Leases of server processes and table handoffs (several processes behind a proxy).

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "instances",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
    )
    op.create_table(
        "handoffs",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("wanted_by", sa.String(64), nullable=False),
        sa.Column("asked_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("handoffs")
    op.drop_table("instances")
