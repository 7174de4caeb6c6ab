"""Puzzles from players' hands: an account's consent, and the account a puzzle's hand is from.

Revision ID: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_accounts.puzzle_consent`` (false for every account: nobody has said yes)
    and ``baofen_puzzles.account_id`` (null: an arena hand's puzzle) with its index."""
    with op.batch_alter_table("baofen_accounts") as batch:
        batch.add_column(sa.Column("puzzle_consent", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("baofen_puzzles") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
    op.create_index("ix_baofen_puzzles_account_id", "baofen_puzzles", ["account_id"])


def downgrade() -> None:
    """Drop both columns (the puzzles stay, no longer linked to their players)."""
    op.drop_index("ix_baofen_puzzles_account_id", "baofen_puzzles")
    with op.batch_alter_table("baofen_puzzles") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("baofen_accounts") as batch:
        batch.drop_column("puzzle_consent")
