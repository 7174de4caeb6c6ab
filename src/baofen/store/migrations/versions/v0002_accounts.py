"""Accounts, sessions, ratings, per-seat hand results, and the account a seat is bound to.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account tables and ``baofen_seats.account_id``."""
    op.create_table(
        "baofen_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("canonical", sa.String(80), nullable=False, unique=True),
        sa.Column("skeleton", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "baofen_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_baofen_sessions_account_id", "baofen_sessions", ["account_id"])
    op.create_table(
        "baofen_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
    )
    op.create_table(
        "baofen_results",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("hand_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("made", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_baofen_results_account_id", "baofen_results", ["account_id"])
    # A plain column (no foreign key): SQLite cannot add a constraint to an existing table.
    op.add_column("baofen_seats", sa.Column("account_id", sa.Integer, nullable=True))
    op.create_index("ix_baofen_seats_account_id", "baofen_seats", ["account_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_baofen_seats_account_id", "baofen_seats")
    with op.batch_alter_table("baofen_seats") as batch:
        batch.drop_column("account_id")
    for name in ("baofen_results", "baofen_ratings", "baofen_sessions", "baofen_accounts"):
        op.drop_table(name)
