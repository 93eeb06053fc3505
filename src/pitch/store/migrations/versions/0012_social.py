"""Friends and safety (issue 46): friend requests and friendships, blocks, invites to a
table, reports for the operator, and when an account was last seen (presence).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _account(name: str, *, primary: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary,
        nullable=False,
    )


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "friend_links",
        _account("from_id", primary=True),
        _account("to_id", primary=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_friend_links_to_id", "friend_links", ["to_id"])
    op.create_table(
        "blocks",
        _account("blocker_id", primary=True),
        _account("blocked_id", primary=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("from_id"),
        _account("to_id"),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("from_id", "to_id", "table_id", name="uq_invites_from_to_table"),
    )
    op.create_index("ix_invites_to_id_sent_at", "invites", ["to_id", "sent_at"])
    op.create_index("ix_invites_from_id_sent_at", "invites", ["from_id", "sent_at"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "reported_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("reported_seat", sa.Integer, nullable=True),
        sa.Column("reported_name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("chat", sa.Text, nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created_at", "reports", ["created_at"])
    op.create_index("ix_reports_reporter_id_created_at", "reports", ["reporter_id", "created_at"])


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("invites")
    op.drop_table("blocks")
    op.drop_table("friend_links")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("last_seen")
