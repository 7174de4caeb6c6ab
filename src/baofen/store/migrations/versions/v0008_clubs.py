"""亲友圈 (clubs): clubs, members, invitations, join requests, presets, forbidden pairs, club
tables and the results of their hands.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Add the club tables."""
    op.create_table(
        "baofen_clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("canonical", sa.String(80), nullable=False, unique=True),
        sa.Column("skeleton", sa.String(80), nullable=False, unique=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("created", _WHEN, nullable=False),
    )
    op.create_table(
        "baofen_club_members",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined", _WHEN, nullable=False),
    )
    op.create_index("ix_baofen_club_members_account_id", "baofen_club_members", ["account_id"])
    op.create_table(
        "baofen_club_invitations",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), nullable=False),
        sa.Column("created_by", sa.Integer, nullable=False),
        sa.Column("created", _WHEN, nullable=False),
        sa.Column("expires", _WHEN, nullable=True),
        sa.Column("max_uses", sa.Integer, nullable=True),
        sa.Column("uses", sa.Integer, nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False),
        sa.Column("approval", sa.Boolean, nullable=False),
    )
    op.create_index("ix_baofen_club_invitations_club_id", "baofen_club_invitations",
                    ["club_id"])
    op.create_table(
        "baofen_club_requests",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("baofen_accounts.id"),
                  primary_key=True),
        sa.Column("created", _WHEN, nullable=False),
    )
    op.create_table(
        "baofen_club_presets",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), primary_key=True),
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("updated", _WHEN, nullable=False),
    )
    op.create_table(
        "baofen_club_pairs",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), primary_key=True),
        sa.Column("first_id", sa.Integer, primary_key=True),
        sa.Column("second_id", sa.Integer, primary_key=True),
    )
    op.create_table(
        "baofen_club_tables",
        sa.Column("table_code", sa.String(32), sa.ForeignKey("baofen_tables.code"),
                  primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("baofen_clubs.id"), nullable=False),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("event", sa.String(64), nullable=True),
        sa.Column("opened_by", sa.Integer, nullable=True),
        sa.Column("created", _WHEN, nullable=False),
    )
    op.create_index("ix_baofen_club_tables_club_id", "baofen_club_tables", ["club_id"])
    op.create_table(
        "baofen_club_results",
        sa.Column("table_code", sa.String(32), primary_key=True),
        sa.Column("hand_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("club_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("made", sa.Boolean, nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("first", sa.Boolean, nullable=False),
        sa.Column("finished", _WHEN, nullable=False),
    )
    op.create_index("ix_baofen_club_results_member", "baofen_club_results",
                    ["club_id", "account_id", "finished"])


    for name, day in (("baofen_club_totals", []), ("baofen_club_days", ["day"])):
        op.create_table(
            name,
            sa.Column("club_id", sa.String(32), primary_key=True),
            sa.Column("variant", sa.String(16), primary_key=True),
            *[sa.Column(column, sa.Date, primary_key=True) for column in day],
            sa.Column("account_id", sa.Integer, primary_key=True),
            sa.Column("matches", sa.Integer, nullable=False),
            sa.Column("hands", sa.Integer, nullable=False),
            sa.Column("made", sa.Integer, nullable=False),
            sa.Column("failed", sa.Integer, nullable=False),
            sa.Column("result", sa.BigInteger, nullable=False),
        )


def downgrade() -> None:
    """Drop them."""
    for name in ("baofen_club_days", "baofen_club_totals", "baofen_club_results",
                 "baofen_club_tables", "baofen_club_pairs",
                 "baofen_club_presets", "baofen_club_requests", "baofen_club_invitations",
                 "baofen_club_members", "baofen_clubs"):
        op.drop_table(name)
