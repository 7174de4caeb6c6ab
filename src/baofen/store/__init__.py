"""Persistence of tables: SQLAlchemy 2 on SQLite (default) or PostgreSQL.

A table is its rule set, settings, match seed and seats, plus an append-only event log; the
match is rebuilt by replaying the log. Finished hands are kept as hand records.
"""

from .database import Event, Store, StoredSeat, StoredTable

__all__ = ["Event", "Store", "StoredSeat", "StoredTable"]
