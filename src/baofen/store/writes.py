"""The writes of the store, each a step of a transaction (:data:`Write`): a new table, a seat
taken or freed, an event appended with what follows from it (a finished hand's record, the
table's new status), a table expired, a 复盘 kept; and the fence that makes a cluster node's
writes land only while it owns the table.

Every write is one committed transaction (:meth:`~baofen.store.database.Store.commit` runs
several in one), so an event is durable before the server acknowledges it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, delete, insert, select, update

from . import schema as db
from .stored import Event, StoredSeat

Write = Callable[[Connection], None]
"""One write of a transaction (:meth:`~baofen.store.database.Store.commit` runs several in
one)."""


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


class Fenced(Exception):
    """A write of a node that no longer owns the table (a newer fencing number was claimed)."""


def json_text(value: Any) -> str:
    """A JSON column's text (an event's payload with every action: orjson, not the standard
    library's encoder; keys that are numbers become strings, as the standard library makes them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def run_writes(conn: Connection, writes: Iterable[Write]) -> None:
    """Run ``writes`` on ``conn`` in order, consecutive rows of the log alone in one statement."""
    rows: list[dict[str, Any]] = []
    for write in writes:
        if isinstance(write, EventAppended) and write.alone:
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
    return EventAppended(code, entry, finished_hand, status)


class EventAppended:
    """The write of :func:`event_appended`. Most are one row of the log alone (an action that
    finished nothing): :func:`run_writes` inserts a group's consecutive ones in one statement
    (``executemany``)."""

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
