"""The store: the database of tables, seats, the event log and hand records, opened (and
migrated), read, and written through.

Every write is one committed transaction, so an event is durable before the server
acknowledges it. An event and what follows from it (a finished hand's record, the table's new
status) are written in the same transaction. The writes themselves are in :mod:`.writes`, what
is read back in :mod:`.stored`, and the writer thread's held connections in :mod:`.writer`;
this module names them all for the server.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from math import ceil
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.schema import DropSchema

from . import schema as db
from .deadlines import session_options, tcp_deadlines
from .migrations import VERSION_TABLE, migrate
from .stored import Event, StoredSeat, StoredTable
from .writer import Writer
from .writes import (
    Fenced,
    FinishedHand,
    Write,
    event_appended,
    fenced,
    json_text,
    new_table,
    review_kept,
    run_writes,
    seat_freed,
    seat_taken,
    table_expired,
)

__all__ = [
    "Event", "Fenced", "FinishedHand", "Store", "StoredSeat", "StoredTable", "Write", "Writer",
    "event_appended", "fenced", "new_table", "review_kept", "seat_freed", "seat_taken",
    "table_expired",
]
MAX_HANDS = 2**31 - 1
"""No match has more hands than a 32-bit integer counts (the ``number`` column's type)."""

OPEN = ("waiting", "playing")
"""The statuses of a table that is not over."""


class Store:
    """The database behind the server: ``Store("sqlite:///baofen.db")`` or a PostgreSQL URL.

    ``schema`` puts every table in that PostgreSQL schema (created when missing): tests use a
    fresh one per run and :meth:`drop` it afterwards. No statement waits on the database for
    much longer than ``timeout`` seconds (a lock, a busy file, a connection): it fails instead.
    """

    def __init__(self, url: str, schema: str | None = None, timeout: float = 5.0) -> None:
        parsed = make_url(url)
        self.url = url
        self.schema = schema
        self.timeout = timeout
        if parsed.get_backend_name() == "sqlite":
            # The server's writer thread writes; readers, tests and tools use other threads.
            engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": timeout},
                json_serializer=json_text,
            )
            event.listen(engine, "connect", partial(_sqlite_pragmas, timeout=timeout))
        else:
            engine = create_engine(
                url, pool_pre_ping=True, pool_timeout=timeout, json_serializer=json_text,
                connect_args={"connect_timeout": max(2, ceil(timeout)),
                              "options": session_options(timeout), **tcp_deadlines(timeout)},
            )
        migrate(engine, schema)  # creates the schema when missing
        if schema is not None:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def drop(self) -> None:
        """Delete everything: the schema (PostgreSQL with ``schema``) or baofen's tables."""
        if self.schema is not None:
            with self.engine.begin() as conn:
                conn.execute(DropSchema(self.schema, cascade=True))
        else:
            db.metadata.drop_all(self.engine)
            with self.engine.begin() as conn:
                conn.execute(text(f"drop table if exists {VERSION_TABLE}"))
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # -- writes -------------------------------------------------------------------------------

    def commit(self, writes: Iterable[Write], writer: Writer | None = None) -> None:
        """Run ``writes`` in one transaction: all of them are stored, or none. Consecutive
        rows of the log alone (:func:`event_appended`) are inserted in one statement.

        ``writer``: the connections the calling thread holds for its writes (:meth:`writer`),
        instead of one checked out of the pool for this transaction alone."""
        if writer is not None:
            writer.commit(list(writes))
            return
        with self._transaction() as conn:
            run_writes(conn, writes)

    def writer(self) -> Writer:
        """Connections to hold for one thread's writes (the server's writer thread)."""
        return Writer(self.engine, self.schema)

    def create_table(
        self, code: str, rules: dict[str, Any], settings: dict[str, Any], seed: int
    ) -> None:
        """Store a new table, waiting for players."""
        self.commit([new_table(code, rules, settings, seed)])

    def save_seat(self, code: str, seat: StoredSeat) -> None:
        """Store who holds a seat (replacing what was there)."""
        self.commit([seat_taken(code, seat)])

    def free_seat(self, code: str, seat: int) -> None:
        """Empty a seat (a player left before the start)."""
        self.commit([seat_freed(code, seat)])

    def append(
        self,
        code: str,
        entry: Event,
        finished_hand: FinishedHand | None = None,
        status: str | None = None,
    ) -> None:
        """Append ``entry`` to the table's log, with the hand it finished and the new status."""
        self.commit([event_appended(code, entry, finished_hand, status)])

    def expire(self, code: str) -> None:
        """Mark a waiting table that nobody started as expired (it is never resumed)."""
        self.commit([table_expired(code)])

    def claim(self, code: str, fence: int) -> int | None:
        """Make ``fence`` the table's fencing number (cluster mode: a node took its lease); from
        now on only writes checked with ``fence`` land. None when done; else the number stored
        already (``fence`` is not above it), or 0 when there is no such table."""
        with self._transaction() as conn:
            fences = db.fences.c
            claimed = conn.execute(update(db.fences).where(
                fences.table_code == code, fences.fence < fence
            ).values(fence=fence))
            if claimed.rowcount == 1:
                return None
            stored = conn.execute(select(fences.fence).where(fences.table_code == code)).first()
            if stored is not None:
                return int(stored.fence)
            if conn.execute(select(db.tables.c.code).where(db.tables.c.code == code)).first():
                try:
                    with conn.begin_nested():
                        conn.execute(insert(db.fences).values(table_code=code, fence=fence))
                except IntegrityError:  # another node claimed it first
                    return fence
                return None
            return 0

    # -- reads --------------------------------------------------------------------------------

    def load(self, code: str) -> StoredTable | None:
        """The whole stored table (seats and log), or None when there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.tables).where(db.tables.c.code == code)).first()
            if row is None:
                return None
            table = StoredTable(
                row.code, row.rules, row.settings, row.seed, row.status, row.created
            )
            for seat in conn.execute(
                select(db.seats).where(db.seats.c.table_code == code).order_by(db.seats.c.seat)
            ):
                table.seats.append(StoredSeat(
                    seat.seat, seat.kind, seat.name, seat.bot_level, seat.token_hash,
                    seat.account_id,
                ))
            for entry in conn.execute(
                select(db.events).where(db.events.c.table_code == code).order_by(db.events.c.seq)
            ):
                table.events.append(Event(entry.seq, entry.kind, entry.payload))
        return table

    def unfinished(self) -> list[str]:
        """Codes of every table that is waiting or playing."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(db.tables.c.code).where(db.tables.c.status.in_(OPEN))
                .order_by(db.tables.c.created)
            )
            return [row.code for row in rows]

    def rated_table_of(self, account_id: int, other_than: str | None = None) -> str | None:
        """The code of a rated table, not over and not ``other_than``, where the account holds
        a seat (an account plays one rated match at a time), or None."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(db.tables.c.code, db.tables.c.settings)
                .join(db.seats, db.seats.c.table_code == db.tables.c.code)
                .where(db.seats.c.account_id == account_id, db.tables.c.status.in_(OPEN),
                       db.tables.c.code != (other_than or ""))
                .order_by(db.tables.c.created)
            )
            return next((row.code for row in rows if (row.settings or {}).get("rated")), None)

    def hand_summaries(self, code: str) -> list[dict[str, Any]]:
        """Summaries of the table's finished hands, in order."""
        return self._hands_column(code, db.hands.c.summary)

    def hand_records(self, code: str) -> list[dict[str, Any]]:
        """Records of the table's finished hands, in order."""
        return self._hands_column(code, db.hands.c.record)

    def _hands_column(self, code: str, column: Any) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(column).where(db.hands.c.table_code == code).order_by(db.hands.c.number)
            )
            return [row[0] for row in rows]

    def hand_record(self, code: str, number: int) -> dict[str, Any] | None:
        """Record of finished hand ``number`` (1 for the first), or None."""
        if not 0 < number <= MAX_HANDS:  # beyond any column's integers: no such hand
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(db.hands.c.record).where(
                db.hands.c.table_code == code, db.hands.c.number == number
            )).first()
            return None if row is None else row.record

    def review(self, code: str, number: int, worlds: int, candidates: int) -> dict[str, Any] | None:
        """The kept 复盘 of hand ``number`` at this budget, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.reviews.c.review).where(
                db.reviews.c.table_code == code, db.reviews.c.hand_number == number,
                db.reviews.c.worlds == worlds, db.reviews.c.candidates == candidates,
            )).first()
            return None if row is None else row.review


def _sqlite_pragmas(dbapi_connection: Any, _record: Any, timeout: float = 5.0) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a commit survives the server being killed (not a power cut)
    # and costs no fsync per action. Switching a new file to WAL while another connection
    # locks it (servers starting together) answers "locked" at once, whatever the busy
    # timeout: asked again until the timeout.
    deadline = time.monotonic() + timeout
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
