"""Analyses (issue 47): each finished game's analysis, kept per record
(``pitch.server.analysis``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
