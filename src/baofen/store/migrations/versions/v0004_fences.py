"""Cluster mode: the fencing number of the node that owns each table.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_fences``."""
    op.create_table(
        "baofen_fences",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("fence", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("baofen_fences")
