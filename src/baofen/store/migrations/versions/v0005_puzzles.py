"""残局练习: puzzles, each attempt at one, and the solvers' puzzle ratings.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_puzzles``, ``baofen_puzzle_attempts`` and ``baofen_puzzle_solvers``."""
    op.create_table(
        "baofen_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("puzzle", sa.JSON, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_index("baofen_puzzles_game_rating", "baofen_puzzles", ["game", "rating"])
    op.create_table(
        "baofen_puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("baofen_puzzles.id"),
                  nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"), nullable=False,
                  index=True),
        sa.Column("move", sa.String(200), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "baofen_puzzle_solvers",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("baofen_puzzle_solvers")
    op.drop_table("baofen_puzzle_attempts")
    op.drop_index("baofen_puzzles_game_rating", table_name="baofen_puzzles")
    op.drop_table("baofen_puzzles")
