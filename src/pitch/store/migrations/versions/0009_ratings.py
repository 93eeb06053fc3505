"""Ratings (issue 46): each account's rating per kind of table, its history, and the
games rated, one row each, written in the same transaction as the ratings they
changed (``pitch.server.ratings``).

``account_id`` is an ``accounts.id`` (0008). No foreign key: an account is never
deleted as a row (its name is blanked), and the rating store is tested on its own.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("left", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_kind_mu", "ratings", ["kind", "mu"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
    )
    op.create_index("ix_rating_history_account_at", "rating_history", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account_at", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_kind_mu", "ratings")
    op.drop_table("ratings")
