"""A rating's hand counts (issue 46, profiles): hands pitched and hands set back, kept
with the rating's other counts and changed in the same transaction, so that a profile
reads them exactly without replaying a player's games.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("pitched", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("set_back", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("set_back")
        batch.drop_column("pitched")
