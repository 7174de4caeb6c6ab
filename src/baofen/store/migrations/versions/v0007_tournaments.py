"""Tournaments (比赛): the event, its entrants, and each round's tables.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_tournaments``, ``baofen_entrants`` and ``baofen_tournament_tables``."""
    op.create_table(
        "baofen_tournaments",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("organiser_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  nullable=False),
        sa.Column("organiser", sa.String(40), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("next_start", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_baofen_tournaments_status", "baofen_tournaments", ["status"])
    op.create_table(
        "baofen_entrants",
        sa.Column("tournament_code", sa.String(32), sa.ForeignKey("baofen_tournaments.code"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("filler", sa.Boolean, nullable=False),
    )
    op.create_index("ix_baofen_entrants_account_id", "baofen_entrants", ["account_id"])
    op.create_table(
        "baofen_tournament_tables",
        sa.Column("tournament_code", sa.String(32), sa.ForeignKey("baofen_tournaments.code"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table", sa.Integer, primary_key=True),
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  nullable=False),
        sa.Column("entrants", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("baofen_tournament_tables")
    op.drop_index("ix_baofen_entrants_account_id", "baofen_entrants")
    op.drop_table("baofen_entrants")
    op.drop_index("ix_baofen_tournaments_status", "baofen_tournaments")
    op.drop_table("baofen_tournaments")
