"""A per-database secret keys the hash that stands for a client's address.

Before this, ``tables.creator`` held an unsalted hash of the creator's address: anyone
with the database could find an IPv4 address from it by trying them all. The new key
is made here, once, so that every server process on the database shares it; the old
hashes are erased (they only counted a creator's unfinished tables for a day).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.bulk_insert(table, [{"name": "client_key", "value": secrets.token_hex(32)}])
    op.execute("UPDATE tables SET creator = 'erased'")


def downgrade() -> None:
    op.drop_table("secrets")
