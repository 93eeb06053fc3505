"""Rated games whose rated seats were taken from one client network (issue 46, rating
manipulation by one player with two accounts at one table): the seat keeps a keyed
hash of the network it was taken from (never the address), the rated game a flag.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("network_hash", sa.String(16), nullable=True))
    with op.batch_alter_table("rated_games") as batch:
        batch.add_column(
            sa.Column("shared_address", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rated_games") as batch:
        batch.drop_column("shared_address")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("network_hash")
