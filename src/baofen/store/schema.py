"""The database tables (SQLAlchemy Core).

``tables`` holds one row per game table; ``seats`` its four seats (token hashes, never tokens);
``events`` the append-only log (one row per accepted action, hand start or away change, in
``seq`` order); ``hands`` the record of every finished hand; ``fences`` (cluster mode only) the
fencing number of the node that owns each table now: every write of an owner checks it.

Accounts: ``accounts`` (password hashes, never passwords), ``sessions`` (hashes of
session cookies), ``ratings`` (one per account and game) and ``results`` (one row per seat of
every finished hand with a declarer, for the players' history). A seat a signed-in player took
names its account (``account_id``).

每日复式挑战: ``challenge_days`` the deals of each game's day, ``challenge_entries`` one row per
entrant (an account, or a guest by the hash of its browser's token) and day, ``challenge_plays``
one per deal an entrant started: its table and, once the hand is stored, the seat's result.

``reviews`` keeps every 复盘 computed (one per hand and budget), so that it is computed once.

Puzzles (残局练习): ``puzzles`` (each with its hand's record, the answer, its Glicko-2 rating and,
made from a player's hand, that player's account, who consented: ``accounts.puzzle_consent``),
``puzzle_attempts`` (each signed-in solver's attempts) and ``puzzle_solvers`` (a solver's puzzle
rating and streak, one per account and game).
亲友圈 (clubs): ``clubs`` (name, owner, settings), ``club_members`` (roles owner, admin, member),
``club_invitations``, ``club_requests`` (to join, awaiting an admin), ``club_presets`` (named rule
sets and table settings), ``club_pairs`` (members who may not sit at one table), ``club_tables``
(the tables opened in a club, with the preset they started from and, for a club event, its id)
``club_results`` (the seats' results of every finished hand of a club table, copied from
``results`` in the hand's transaction, for the members' club histories), and the standings'
sums kept in the same transaction: ``club_totals`` (per member and game, all time) and
``club_days`` (per member, game and UTC day, for the last 7 and 30 days).

The schema changes only through the Alembic migrations in :mod:`baofen.store.migrations`; these
definitions are what the latest migration makes, and what the queries are written against.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
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
    # The player lets their finished hands be searched for puzzles (off until they say so).
    Column("puzzle_consent", Boolean, nullable=False, server_default=false()),
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
    Column("result", BigInteger, nullable=False),  # a doubled pot has no ceiling
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

challenge_days = Table(
    "baofen_challenge_days",
    metadata,
    Column("variant", String(16), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("deals", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

challenge_entries = Table(
    "baofen_challenge_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("variant", String(16), nullable=False),
    Column("day", String(10), nullable=False, index=True),
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), nullable=True, index=True),
    Column("guest_hash", String(64), nullable=True, index=True),
    Column("name", String(40), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    UniqueConstraint("variant", "day", "account_id", name="uq_challenge_entry_account"),
    UniqueConstraint("variant", "day", "guest_hash", name="uq_challenge_entry_guest"),
)

challenge_plays = Table(
    "baofen_challenge_plays",
    metadata,
    Column("entry_id", Integer, ForeignKey("baofen_challenge_entries.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("day", String(10), nullable=False, index=True),
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), nullable=False,
           index=True),
    Column("seat", Integer, nullable=False),
    Column("result", Integer, nullable=True),
    Column("contract", JSON, nullable=True),
    Column("finished", DateTime(timezone=True), nullable=True),
)

puzzles = Table(
    "baofen_puzzles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("puzzle", JSON, nullable=False),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    # The account whose finished hand the puzzle comes from (null: an arena hand).
    Column("account_id", Integer, nullable=True, index=True),
    Index("baofen_puzzles_game_rating", "game", "rating"),
)

puzzle_attempts = Table(
    "baofen_puzzle_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("puzzle_id", String(16), ForeignKey("baofen_puzzles.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), nullable=False, index=True),
    Column("move", String(200), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

puzzle_solvers = Table(
    "baofen_puzzle_solvers",
    metadata,
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
)

# 亲友圈 (clubs): see :mod:`.clubs` and :mod:`.club_records`.

clubs = Table(
    "baofen_clubs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("canonical", String(80), nullable=False, unique=True),
    Column("skeleton", String(80), nullable=False, unique=True),
    Column("owner_id", Integer, ForeignKey("baofen_accounts.id"), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

club_members = Table(
    "baofen_club_members",
    metadata,
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), primary_key=True,
           index=True),
    Column("role", String(8), nullable=False),
    Column("joined", DateTime(timezone=True), nullable=False),
)

club_invitations = Table(
    "baofen_club_invitations",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), nullable=False, index=True),
    Column("created_by", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=True),
    Column("max_uses", Integer, nullable=True),
    Column("uses", Integer, nullable=False),
    Column("revoked", Boolean, nullable=False),
    Column("approval", Boolean, nullable=False),
)

club_requests = Table(
    "baofen_club_requests",
    metadata,
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("baofen_accounts.id"), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

club_presets = Table(
    "baofen_club_presets",
    metadata,
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), primary_key=True),
    Column("name", String(40), primary_key=True),
    Column("rules", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

club_pairs = Table(
    "baofen_club_pairs",
    metadata,
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), primary_key=True),
    Column("first_id", Integer, primary_key=True),
    Column("second_id", Integer, primary_key=True),
)

club_tables = Table(
    "baofen_club_tables",
    metadata,
    Column("table_code", String(32), ForeignKey("baofen_tables.code"), primary_key=True),
    Column("club_id", String(32), ForeignKey("baofen_clubs.id"), nullable=False, index=True),
    Column("preset", String(40), nullable=True),
    Column("event", String(64), nullable=True),
    Column("opened_by", Integer, nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

club_results = Table(
    "baofen_club_results",
    metadata,
    Column("table_code", String(32), primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("club_id", String(32), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("variant", String(16), nullable=False),
    Column("role", String(16), nullable=False),
    Column("made", Boolean, nullable=False),
    Column("result", Integer, nullable=False),
    Column("first", Boolean, nullable=False),
    Column("finished", DateTime(timezone=True), nullable=False),
    Index("ix_baofen_club_results_member", "club_id", "account_id", "finished"),
)

def standing_counts() -> list[Column[int]]:
    """The sums a club's standings add up, in ``club_totals`` and ``club_days`` alike (new
    columns each call: a column belongs to one table)."""
    return [
        Column("matches", Integer, nullable=False),
        Column("hands", Integer, nullable=False),
        Column("made", Integer, nullable=False),
        Column("failed", Integer, nullable=False),
        Column("result", BigInteger, nullable=False),
    ]


club_totals = Table(
    "baofen_club_totals",
    metadata,
    Column("club_id", String(32), primary_key=True),
    Column("variant", String(16), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    *standing_counts(),
)

club_days = Table(
    "baofen_club_days",
    metadata,
    Column("club_id", String(32), primary_key=True),
    Column("variant", String(16), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("account_id", Integer, primary_key=True),
    *standing_counts(),
)

# Tournaments (比赛): the event, its entrants, and the tables each round was seated at (the
# tables themselves are ``baofen_tables`` like any other; their hands are the event's record).
# A club's event names its club (no foreign key: a dissolved club's events stay, seen by nobody).

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
    Column("club_id", String(32), nullable=True, index=True),
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
