"""Where the computer players think: a few threads, shared among clients in turns.

A search level (困难, 大师) thinks for a good part of a second a decision, partly in Python,
which holds the GIL that the event loop needs for every message of every table. Were each
decision given a thread of its own, one visitor opening many tables of 大师 players would keep
every core and the GIL busy, and every other table's answers would wait. So the decisions run
in :data:`POOL`, :data:`WORKERS` at a time at most, leaving the event loop a core; and those
waiting are taken in turns by client (:func:`client_of`): each client gets one decision in
turn, however many tables it plays at, so one visitor's tables cannot keep another's waiting
for more than one decision per client ahead of it.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from ...actions import Action
    from ...bots import Bot
    from ...observation import Observation
    from .table import Table

T = TypeVar("T")

WORKERS = max(1, min(4, (os.cpu_count() or 2) // 2))
"""Decisions computed at once at most: half the cores (one at least, four at most, since the
search's Python parts take turns on the GIL)."""


class FairPool:
    """Runs calls on ``workers`` threads, taking the waiting ones in turns by client (one call
    of each client in turn, each client's in the order they came)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._waiting: OrderedDict[str, deque[tuple[Future[Any], Callable[[], Any]]]] = (
            OrderedDict())
        """Each client's waiting calls; the client whose turn is next first."""
        self._running = 0
        self._threads = ThreadPoolExecutor(workers, thread_name_prefix="computer-player")

    def submit(self, client: str, call: Callable[[], T]) -> Future[T]:
        """Queue ``call`` for ``client``; its future (cancelled before it starts, it never
        runs)."""
        future: Future[T] = Future()
        with self._lock:
            self._waiting.setdefault(client, deque()).append((future, call))
            self._start()
        return future

    def _start(self) -> None:
        """Start the next calls in turn while a thread is free (the lock held)."""
        while self._running < self.workers and self._waiting:
            client, calls = next(iter(self._waiting.items()))
            future, call = calls.popleft()
            if calls:
                self._waiting.move_to_end(client)  # its next call after everyone else's
            else:
                del self._waiting[client]
            if future.set_running_or_notify_cancel():
                self._running += 1
                self._threads.submit(self._run, future, call)

    def _run(self, future: Future[Any], call: Callable[[], Any]) -> None:
        try:
            result = call()
        except Exception as error:
            future.set_exception(error)
        else:
            future.set_result(result)
        finally:
            with self._lock:
                self._running -= 1
                self._start()


POOL = FairPool(WORKERS)
"""The pool every table's computer players think in."""


class Failures:
    """Decisions a computer player could not make on this server, which the rule bot made
    instead: counted, so that ``GET /health`` shows them, never hidden behind a random play."""

    def __init__(self) -> None:
        self.count = 0

    def add(self) -> int:
        """Count one failure; the count so far."""
        self.count += 1
        return self.count


FAILURES = Failures()
"""This server's count of computer players' failed decisions."""


def client_of(table: Table) -> str:
    """Whose turn a table's computer players think in: the address of its first connected
    player (through another node of a cluster: as that node saw it), so that one visitor's
    tables share one turn; a table without one has a turn of its own."""
    for seat in table.seats:
        connection = seat.connection
        if seat.kind == "human" and connection is not None and connection.address:
            return connection.address
    return f"table {table.code}"


async def act(table: Table, bot: Bot, observation: Observation) -> Action:
    """``bot``'s action for ``observation``, decided in :data:`POOL` in the turn of
    ``table``'s client."""
    return await asyncio.wrap_future(POOL.submit(client_of(table), lambda: bot.act(observation)))
