"""The database tables (SQLAlchemy Core).

``tables`` holds one row per game table; ``seats`` its four seats (token hashes, never tokens);
``events`` the append-only log (one row per accepted action, hand start or away change, in
``seq`` order); ``hands`` the record of every finished hand; ``fences`` (cluster mode only) the
fencing number of the node that owns each table now: every write of an owner checks it.

Accounts: ``accounts`` (password hashes, never passwords), ``sessions`` (hashes of
session cookies), ``ratings`` (one per account and game) and ``results`` (one row per seat of
every finished hand with a declarer, for the players' history). A seat a signed-in player took
names its account (``account_id``).

``reviews`` keeps every 复盘 computed (one per hand and budget), so that it is computed once.

The schema changes only through the Alembic migrations in :mod:`baofen.store.migrations`; these
definitions are what the latest migration makes, and what the queries are written against.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
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
    Column("account_id", Integer, nullable=True, index=True),
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

accounts = Table(
    "baofen_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(40), nullable=False),
    Column("canonical", String(80), nullable=False, unique=True),
    Column("skeleton", String(80), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "baofen_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
)

ratings = Table(
    "baofen_ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), primary_key=True),
    Column("variant", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("hands", Integer, nullable=False),
)

results = Table(
    "baofen_results",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=True, index=True),
    Column("kind", String(8), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("role", String(16), nullable=False),
    Column("result", Integer, nullable=False),
    Column("made", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("finished", DateTime(timezone=True), nullable=False),
)

reviews = Table(
    "baofen_reviews",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("worlds", Integer, primary_key=True),
    Column("candidates", Integer, primary_key=True),
    Column("review", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

fences = Table(
    "baofen_fences",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("fence", BigInteger, nullable=False),
)

# Tournaments (比赛): the event, its entrants, and the tables each round was seated at (the
# tables themselves are ``baofen_tables`` like any other; their hands are the event's record).

tournaments = Table(
    "baofen_tournaments",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("organiser_id", Integer, ForeignKey("baofen_accounts.id"), nullable=False),
    Column("organiser", String(40), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("next_start", DateTime(timezone=True), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

entrants = Table(
    "baofen_entrants",
    metadata,
    Column("tournament_code", String(32), ForeignKey("baofen_tournaments.code"),
           primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("account_id", Integer, nullable=True, index=True),
    Column("token_hash", String(64), nullable=True),
    Column("filler", Boolean, nullable=False),
)

tournament_tables = Table(
    "baofen_tournament_tables",
    metadata,
    Column("tournament_code", String(32), ForeignKey("baofen_tournaments.code"),
           primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("table", Integer, primary_key=True),
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), nullable=False),
    Column("entrants", JSON, nullable=False),
)
