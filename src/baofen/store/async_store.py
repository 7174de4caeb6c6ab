"""The store as the server's event loop uses it: every database wait off the loop, bounded.

Writes go to one writer thread through a queue, those an event loop makes in one round of its
callbacks together. The writer commits whatever has queued up while it was busy in ONE
transaction (group commit: actions arriving together from many tables cost one commit), so a
table's events are stored in the order they were sent, and each ``await`` returns only once
its write is committed. Reads run in worker threads. A slow or locked database therefore stalls
only the tables that wait on it, and every wait ends by ``timeout``: the database's own timeouts
(:class:`Store`) end a statement, and a write still queued when its time is up is dropped
unwritten, and nobody waits for a commit longer than twice ``timeout``. Every failure is
:class:`StoreUnavailable`.

In cluster mode (:attr:`AsyncStore.fences` set) a node writes only to the tables it owns: each
write checks, in its transaction, the fencing number the node claimed for the table, so that a
node that lost a table without knowing it yet (frozen past its lease) cannot write to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .database import (
    Event,
    Fenced,
    FinishedHand,
    Store,
    StoredSeat,
    StoredTable,
    Write,
    Writer,
    event_appended,
    fenced,
    new_table,
    review_kept,
    seat_freed,
    seat_taken,
    table_expired,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_GROUP = 256
"""Writes committed in one transaction at most."""


class StoreUnavailable(Exception):
    """The database did not answer in time, or failed; nothing was written."""


class StoreFenced(StoreUnavailable):
    """Cluster mode: this node does not own the table (any more); nothing was written."""


@dataclass(slots=True)
class _Job:
    write: Write
    deadline: float
    """``time.monotonic()`` after which the write is dropped unwritten."""
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


class AsyncStore:
    """``store`` for coroutines: ``await`` each write (committed) and read (done)."""

    def __init__(self, store: Store, timeout: float,
                 fences: dict[str, int] | None = None) -> None:
        self.store = store
        self.timeout = timeout
        self.writes = 0
        """Writes committed."""
        self.groups = 0
        """Transactions the writer committed them in (group commit: fewer than writes)."""
        self.fences = fences
        """Cluster mode: the fencing number of every table this node owns (kept by its
        :class:`~baofen.server.cluster.ownership.Ownership`); a write to any other table is
        refused. None: one server, no checks."""
        self._queue: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._pending: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        """The writes each event loop made in its current round, handed to the writer at its
        end (:meth:`_flush`): one wake-up of the writer for all of them."""
        self._writer: Writer | None = None
        """The writer thread's own connections, held open from one group to the next;
        dropped when a commit fails."""
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Commit what is queued, stop the writer and release the database."""
        for loop in list(self._pending):
            self._flush(loop)
        self._queue.put(None)
        self._thread.join(self.timeout + 1)
        self.store.close()
        log.info("the store committed %d writes in %d transactions", self.writes, self.groups)

    # -- writes -------------------------------------------------------------------------------

    async def create_table(
        self, code: str, rules: dict[str, Any], settings: dict[str, Any], seed: int
    ) -> None:
        """Store a new table, waiting for players."""
        await self._write(new_table(code, rules, settings, seed))

    async def save_seat(self, code: str, seat: StoredSeat) -> None:
        """Store who holds a seat."""
        await self._write(seat_taken(code, seat), code)

    async def free_seat(self, code: str, seat: int) -> None:
        """Empty a seat."""
        await self._write(seat_freed(code, seat), code)

    async def append(
        self, code: str, entry: Event, finished_hand: FinishedHand | None, status: str | None
    ) -> None:
        """Append an event to a table's log (see :meth:`Store.append`)."""
        await self._write(event_appended(code, entry, finished_hand, status), code)

    async def expire(self, code: str) -> None:
        """Mark a table nobody started as expired."""
        await self._write(table_expired(code), code)

    async def keep_review(self, code: str, number: int, worlds: int, candidates: int,
                          review: dict[str, Any]) -> None:
        """Keep a computed 复盘 of a finished hand."""
        await self._write(review_kept(code, number, worlds, candidates, review))

    async def claim(self, code: str, fence: int) -> int | None:
        """Cluster mode: claim the table with ``fence`` (see :meth:`Store.claim`)."""
        return await self._read(self.store.claim, code, fence)

    async def _write(self, write: Write, code: str | None = None) -> None:
        if self.fences is not None and code is not None:
            fence = self.fences.get(code)
            if fence is None:
                raise StoreFenced(f"this node does not own table {code}")
            write = fenced(code, fence, write)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        pending = self._pending.get(loop)
        if pending is None:
            pending = self._pending[loop] = []
            loop.call_soon(self._flush, loop)
        pending.append(_Job(write, time.monotonic() + self.timeout, future, loop))
        # A write the writer has begun ends by the database's own timeouts; should one hang
        # past them all the same, its caller stops waiting (and must read back whether it was
        # committed: a :class:`~baofen.server.table.Table` does, before its next change).
        # The writer's answer after that finds the future done, and is dropped.
        expiry = loop.call_later(2 * self.timeout, _expire, future)
        try:
            await future
        finally:
            expiry.cancel()

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        jobs = self._pending.pop(loop, None)
        if jobs:
            self._queue.put(jobs)

    def _run(self) -> None:
        try:
            self._write_until_closed()
        finally:
            if self._writer is not None:
                self._writer.close()

    def _write_until_closed(self) -> None:
        while (jobs := self._queue.get()) is not None:
            group = list(jobs)
            while len(group) < MAX_GROUP:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                group.extend(more)
            for start in range(0, len(group), MAX_GROUP):
                self._commit(group[start:start + MAX_GROUP])

    def _commit(self, group: list[_Job]) -> None:
        now = time.monotonic()
        late = [job for job in group if job.deadline < now]
        for job in late:
            _settle(job, StoreUnavailable("the database did not answer in time"))
        group = [job for job in group if job.deadline >= now]
        if not group:
            return
        try:
            if self._writer is None:
                self._writer = self.store.writer()
            self.store.commit([job.write for job in group], self._writer)
        except Exception as error:
            if self._writer is not None:  # it may be broken: the next group takes a new one
                self._writer.close()
                self._writer = None
            if len(group) > 1:
                # One table's bad write must not fail the others', whatever its error (a text
                # the database cannot store fails as a DataError, not an IntegrityError): each
                # on its own. Should the database be down instead, the writes whose time ran out
                # while the group failed are dropped unwritten, not retried one by one.
                for job in group:
                    self._commit([job])
                return
            log.warning("the store refused a write: %s", error)
            kind = StoreFenced if isinstance(error, Fenced) else StoreUnavailable
            for job in group:
                _settle(job, kind(str(error) or type(error).__name__))
            return
        self.groups += 1
        self.writes += len(group)
        _settle_all(group)

    # -- reads --------------------------------------------------------------------------------

    async def load(self, code: str) -> StoredTable | None:
        """The whole stored table, or None."""
        return await self._read(self.store.load, code)

    async def unfinished(self) -> list[str]:
        """Codes of every table that is waiting or playing."""
        return await self._read(self.store.unfinished)

    async def rated_table_of(self, account_id: int, other_than: str | None = None) -> str | None:
        """The rated table, not over, where the account holds a seat (not ``other_than``)."""
        return await self._read(self.store.rated_table_of, account_id, other_than)

    async def hand_summaries(self, code: str) -> list[dict[str, Any]]:
        """Summaries of the table's finished hands."""
        return await self._read(self.store.hand_summaries, code)

    async def hand_records(self, code: str) -> list[dict[str, Any]]:
        """Records of the table's finished hands."""
        return await self._read(self.store.hand_records, code)

    async def hand_record(self, code: str, number: int) -> dict[str, Any] | None:
        """Record of one finished hand, or None."""
        return await self._read(self.store.hand_record, code, number)

    async def review(self, code: str, number: int, worlds: int,
                     candidates: int) -> dict[str, Any] | None:
        """The kept 复盘 of a hand at this budget, or None."""
        return await self._read(self.store.review, code, number, worlds, candidates)

    async def _read(self, read: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.wait_for(asyncio.to_thread(read, *args), self.timeout)
        except Exception as error:
            log.warning("the store failed a read: %r", error)
            raise StoreUnavailable(str(error) or "the database did not answer in time") from None


def _expire(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_exception(StoreUnavailable("the database did not answer in time"))


def _settle_all(group: list[_Job]) -> None:
    """Answer a committed group's writers: one wake-up of each event loop for all of them."""
    loops: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for job in group:
        loops.setdefault(job.loop, []).append(job.future)

    def settle(futures: list[asyncio.Future[None]]) -> None:
        for future in futures:
            if not future.done():
                future.set_result(None)

    for loop, futures in loops.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle, futures)


def _settle(job: _Job, error: Exception | None) -> None:
    def settle() -> None:
        if job.future.done():
            return
        if error is None:
            job.future.set_result(None)
        else:
            job.future.set_exception(error)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        job.loop.call_soon_threadsafe(settle)
