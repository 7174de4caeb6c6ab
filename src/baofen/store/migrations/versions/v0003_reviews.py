"""The 复盘 of finished hands, kept once computed.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_reviews``."""
    op.create_table(
        "baofen_reviews",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("hand_number", sa.Integer, primary_key=True),
        sa.Column("worlds", sa.Integer, primary_key=True),
        sa.Column("candidates", sa.Integer, primary_key=True),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("baofen_reviews")
