"""The database tables (SQLAlchemy Core).

``tables`` holds one row per game table; ``seats`` its four seats (token hashes, never tokens);
``events`` the append-only log (one row per accepted action, hand start or away change, in
``seq`` order); ``hands`` the record of every finished hand; ``fences`` (cluster mode only) the
fencing number of the node that owns each table now: every write of an owner checks it.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()
"""All of baofen's tables."""

tables = Table(
    "baofen_tables",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("rules", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "baofen_seats",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=True),
    Column("bot_level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

events = Table(
    "baofen_events",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

hands = Table(
    "baofen_hands",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("summary", JSON, nullable=False),
    Column("record", JSON, nullable=False),
)

fences = Table(
    "baofen_fences",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("fence", BigInteger, nullable=False),
)
