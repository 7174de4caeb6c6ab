"""Club events: a tournament may belong to a club (亲友圈), for its members only.

Revision ID: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``baofen_tournaments.club_id`` (null: an event open to everyone) and its index."""
    with op.batch_alter_table("baofen_tournaments") as batch:
        batch.add_column(sa.Column("club_id", sa.String(32), nullable=True))
    op.create_index("ix_baofen_tournaments_club_id", "baofen_tournaments", ["club_id"])


def downgrade() -> None:
    """Drop the column (a club's events become everyone's)."""
    op.drop_index("ix_baofen_tournaments_club_id", "baofen_tournaments")
    with op.batch_alter_table("baofen_tournaments") as batch:
        batch.drop_column("club_id")
