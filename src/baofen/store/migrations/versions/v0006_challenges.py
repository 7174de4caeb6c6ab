"""每日复式挑战: each game's deals of a day, its entrants and their plays.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_challenge_days``, ``baofen_challenge_entries`` and
    ``baofen_challenge_plays``."""
    op.create_table(
        "baofen_challenge_days",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deals", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "baofen_challenge_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("day", sa.String(10), nullable=False, index=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"), nullable=True,
                  index=True),
        sa.Column("guest_hash", sa.String(64), nullable=True, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("variant", "day", "account_id", name="uq_challenge_entry_account"),
        sa.UniqueConstraint("variant", "day", "guest_hash", name="uq_challenge_entry_guest"),
    )
    op.create_table(
        "baofen_challenge_plays",
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("baofen_challenge_entries.id"),
                  primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("day", sa.String(10), nullable=False, index=True),
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("result", sa.Integer, nullable=True),
        sa.Column("contract", sa.JSON, nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("baofen_challenge_plays")
    op.drop_table("baofen_challenge_entries")
    op.drop_table("baofen_challenge_days")
