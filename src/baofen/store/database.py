"""The store: every read and write of tables, seats, the event log and hand records.

Every write is one committed transaction, so an event is durable before the server
acknowledges it. An event and what follows from it (a finished hand's record, the table's new
status) are written in the same transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from math import ceil
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.schema import DropSchema

from . import schema as db
from .deadlines import session_options, tcp_deadlines
from .migrations import VERSION_TABLE, migrate


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A taken seat: a player (with the hash of their token) or a computer player."""

    seat: int
    kind: str
    """``"human"`` or ``"bot"``."""
    name: str | None = None
    bot_level: str | None = None
    token_hash: str | None = None
    account_id: int | None = None
    """The account of the signed-in player who took the seat (None: a guest or a computer)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a table's log."""

    seq: int
    """1 for the first event; the table's version after it."""
    kind: str
    """``"start"``, ``"action"``, ``"next"`` (next hand) or ``"away"``."""
    payload: dict[str, Any]
    """JSON data; the server reads and writes each kind's as a typed event
    (:mod:`baofen.wire.events`)."""


@dataclass(slots=True)
class StoredTable:
    """Everything stored about one table."""

    code: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    """``"waiting"``, ``"playing"``, ``"finished"``, or ``"expired"`` (nobody started it)."""
    created: datetime
    seats: list[StoredSeat] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand to store with the event that finished it."""

    number: int
    summary: dict[str, Any]
    record: dict[str, Any]
    results: Write | None = None
    """Stores the seats' results and rating changes (:mod:`.accounts`), in the same
    transaction as the hand."""


def _now() -> datetime:
    return datetime.now(UTC)


_INSERT_EVENT = insert(db.events)
"""Built once: an action's write is the server's hottest statement."""

_CHECK_FENCE = (
    update(db.fences)
    .where(db.fences.c.table_code == bindparam("code"), db.fences.c.fence == bindparam("fence"))
    .values(fence=db.fences.c.fence)
)
"""Built once, like :data:`_INSERT_EVENT`: it runs with every write of a cluster node (it only
locks the row: ``SET fence = fence``)."""

_FREE_SEAT = delete(db.seats).where(
    db.seats.c.table_code == bindparam("code"), db.seats.c.seat == bindparam("number")
)
_INSERT_SEAT = insert(db.seats)
_INSERT_TABLE = insert(db.tables)
_SET_STATUS = (
    update(db.tables).where(db.tables.c.code == bindparam("table"))
    .values(status=bindparam("new_status"), updated=bindparam("now"))
)
"""Built once, like :data:`_INSERT_EVENT`: every join, leave and start writes them (building
a statement costs more than running it), and every new table the first."""

Write = Callable[[Connection], None]
"""One write of a transaction (:meth:`Store.commit` runs several in one)."""

MAX_HANDS = 2**31 - 1
"""No match has more hands than a 32-bit integer counts (the ``number`` column's type)."""

OPEN = ("waiting", "playing")
"""The statuses of a table that is not over."""


class Fenced(Exception):
    """A write of a node that no longer owns the table (a newer fencing number was claimed)."""


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
                json_serializer=_json_text,
            )
            event.listen(engine, "connect", partial(_sqlite_pragmas, timeout=timeout))
        else:
            engine = create_engine(
                url, pool_pre_ping=True, pool_timeout=timeout, json_serializer=_json_text,
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
            _run_writes(conn, writes)

    def writer(self) -> Writer:
        """Connections to hold for one thread's writes (the server's writer thread)."""
        return Writer(self)

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


# -- the writes, each a step of a transaction ------------------------------------------------


class Writer:
    """One thread's held connections for its writes (see :meth:`commit`).

    Held open from one commit to the next instead of one checked out of the pool, pinged and
    given back for every transaction: against PostgreSQL a round trip per transaction saved.
    A caller whose commit failed closes the writer (:meth:`close`) and takes a new one.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._connection: Connection | None = None
        self._log: Any = None
        """PostgreSQL: a psycopg connection in autocommit for groups of log rows alone."""
        self._log_rows = ""
        if store.engine.dialect.name == "postgresql":
            quote = store.engine.dialect.identifier_preparer.quote
            name = quote(db.events.name)
            table = f"{quote(store.schema)}.{name}" if store.schema else name
            # One statement whatever the number of rows (each column an array): prepared once.
            self._log_rows = (
                f"INSERT INTO {table} (table_code, seq, kind, payload, created) SELECT * FROM"
                " unnest(%s::text[], %s::int[], %s::text[], %s::json[], %s::timestamptz[])"
            )

    def commit(self, writes: list[Write]) -> None:
        """Run ``writes`` in one transaction, all stored or none (as :meth:`Store.commit`).

        On PostgreSQL, a group of rows of the log alone (most groups: actions that finished
        nothing) is ONE statement in autocommit, atomic by itself: one round trip instead of
        three, and none of SQLAlchemy's and psycopg's per-statement machinery (executemany
        runs psycopg's pipeline): the writer thread spends about a third less CPU a row."""
        if self._log_rows and all(isinstance(w, _EventAppended) and w.alone for w in writes):
            self._insert_log_rows(writes)  # type: ignore[arg-type]
            return
        if self._connection is None:
            self._connection = self._store.engine.connect()
        with self._connection.begin():
            _run_writes(self._connection, writes)

    def _insert_log_rows(self, writes: list[_EventAppended]) -> None:
        if self._log is None:
            raw = self._store.engine.raw_connection()
            raw.detach()  # autocommit: never handed back to the pool
            raw.dbapi_connection.autocommit = True  # type: ignore[union-attr]
            self._log = raw
        rows = [write.row for write in writes]
        columns = ([row["table_code"] for row in rows], [row["seq"] for row in rows],
                   [row["kind"] for row in rows], [_json_text(row["payload"]) for row in rows],
                   [row["created"] for row in rows])
        cursor = self._log.cursor()
        try:
            cursor.execute(self._log_rows, columns, prepare=True)
        finally:
            cursor.close()

    def close(self) -> None:
        """Close the connections (after a failed commit: they may be broken, never reused)."""
        with suppress(Exception):  # they are being thrown away
            if self._connection is not None:
                self._connection.invalidate()
                self._connection.close()
        with suppress(Exception):
            if self._log is not None:
                self._log.close()
        self._connection = self._log = None


def _json_text(value: Any) -> str:
    """A JSON column's text (an event's payload with every action: orjson, not the standard
    library's encoder; keys that are numbers become strings, as the standard library makes them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _run_writes(conn: Connection, writes: Iterable[Write]) -> None:
    rows: list[dict[str, Any]] = []
    for write in writes:
        if isinstance(write, _EventAppended) and write.alone:
            rows.append(write.row)
            continue
        if rows:
            conn.execute(_INSERT_EVENT, rows)
            rows = []
        write(conn)
    if rows:
        conn.execute(_INSERT_EVENT, rows)


def new_table(code: str, rules: dict[str, Any], settings: dict[str, Any], seed: int) -> Write:
    """Store a new table, waiting for players."""
    now = _now()
    row = {"code": code, "rules": rules, "settings": settings, "seed": seed,
           "status": "waiting", "created": now, "updated": now}

    def write(conn: Connection) -> None:
        conn.execute(_INSERT_TABLE, row)

    return write


def seat_taken(code: str, seat: StoredSeat) -> Write:
    """Store who holds a seat (replacing what was there)."""

    def write(conn: Connection) -> None:
        seat_freed(code, seat.seat)(conn)
        conn.execute(_INSERT_SEAT, {
            "table_code": code, "seat": seat.seat, "kind": seat.kind, "name": seat.name,
            "bot_level": seat.bot_level, "token_hash": seat.token_hash,
            "account_id": seat.account_id,
        })

    return write


def seat_freed(code: str, seat: int) -> Write:
    """Empty a seat."""

    def write(conn: Connection) -> None:
        conn.execute(_FREE_SEAT, {"code": code, "number": seat})

    return write


def event_appended(
    code: str, entry: Event, finished_hand: FinishedHand | None = None, status: str | None = None
) -> Write:
    """Append ``entry`` to the table's log, with the hand it finished and the new status.

    A ``seq`` already in the log is refused by the database (two writers never interleave).
    """
    return _EventAppended(code, entry, finished_hand, status)


class _EventAppended:
    """The write of :func:`event_appended`. Most are one row of the log alone (an action that
    finished nothing): :meth:`Store.commit` inserts a group's consecutive ones in one
    statement (``executemany``)."""

    __slots__ = ("code", "finished_hand", "row", "status")

    def __init__(self, code: str, entry: Event, finished_hand: FinishedHand | None,
                 status: str | None) -> None:
        self.code, self.finished_hand, self.status = code, finished_hand, status
        self.row = {
            "table_code": code, "seq": entry.seq, "kind": entry.kind,
            "payload": entry.payload, "created": _now(),
        }

    @property
    def alone(self) -> bool:
        """True when the write is its row of the log and nothing more."""
        return self.finished_hand is None and self.status is None

    def __call__(self, conn: Connection) -> None:
        conn.execute(_INSERT_EVENT, self.row)
        finished_hand, code = self.finished_hand, self.code
        if finished_hand is not None:
            conn.execute(insert(db.hands).values(
                table_code=code, number=finished_hand.number,
                summary=finished_hand.summary, record=finished_hand.record,
            ))
            if finished_hand.results is not None:
                finished_hand.results(conn)
        if self.status is not None:
            _set_status(conn, code, self.status)


def fenced(code: str, fence: int, write: Write) -> Write:
    """``write``, provided the table's fencing number is still ``fence`` (:class:`Fenced` else).

    The check locks the table's fence row until the commit, so a node claiming the table
    meanwhile waits for this transaction and then loads a log that holds its write.
    """
    values = {"code": code, "fence": fence}

    def checked(conn: Connection) -> None:
        if conn.execute(_CHECK_FENCE, values).rowcount != 1:
            raise Fenced(f"table {code}: fencing number {fence} is stale")
        write(conn)

    return checked


def table_expired(code: str) -> Write:
    """Mark a table nobody started as expired."""
    return lambda conn: _set_status(conn, code, "expired")


def review_kept(code: str, number: int, worlds: int, candidates: int,
                review: dict[str, Any]) -> Write:
    """Keep a computed 复盘 (unless one is kept already: a review is computed at most once per
    server, but two servers may both have computed it)."""
    key = (db.reviews.c.table_code == code, db.reviews.c.hand_number == number,
           db.reviews.c.worlds == worlds, db.reviews.c.candidates == candidates)

    def write(conn: Connection) -> None:
        if conn.execute(select(db.reviews.c.created).where(*key)).first() is None:
            conn.execute(insert(db.reviews).values(
                table_code=code, hand_number=number, worlds=worlds, candidates=candidates,
                review=review, created=_now(),
            ))

    return write


def _set_status(conn: Connection, code: str, status: str) -> None:
    conn.execute(_SET_STATUS, {"table": code, "new_status": status, "now": _now()})


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
