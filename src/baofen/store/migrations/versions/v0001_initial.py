"""The schema before migrations: tables, seats, events, hands (as ``metadata.create_all`` made it).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables of the first release."""
    op.create_table(
        "baofen_tables",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_baofen_tables_status", "baofen_tables", ["status"])
    op.create_table(
        "baofen_seats",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "baofen_events",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "baofen_hands",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    for name in ("baofen_hands", "baofen_events", "baofen_seats", "baofen_tables"):
        op.drop_table(name)
