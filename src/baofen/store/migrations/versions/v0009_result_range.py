"""A seat's hand result as a 64-bit number: in 包分 a pot that failed declarers keep doubling
(捞水草: 100 → 200 → 400 → …) has no ceiling, and after about 25 failures in a row a hand's result
no longer fits 32 bits.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Widen ``baofen_results.result`` to a BigInteger."""
    with op.batch_alter_table("baofen_results") as batch:
        batch.alter_column("result", existing_type=sa.Integer, type_=sa.BigInteger,
                           existing_nullable=False)


def downgrade() -> None:
    """Narrow it back (a result beyond 32 bits makes the downgrade fail, as it should)."""
    with op.batch_alter_table("baofen_results") as batch:
        batch.alter_column("result", existing_type=sa.BigInteger, type_=sa.Integer,
                           existing_nullable=False)
