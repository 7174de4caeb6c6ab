"""Test doubles of the table's surroundings, for driving a :class:`Table` in process: a store in
memory that can refuse a write, or store one and lose its answer, or not answer reads; a socket
that takes every message; and no driver, so that the test moves the match on itself."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from starlette.websockets import WebSocketState

from baofen.server import ServerSettings
from baofen.server.connections import Connection
from baofen.server.tables import Table
from baofen.store import Event, StoredSeat, StoredTable
from baofen.store.async_store import StoreFenced, StoreUnavailable
from baofen.store.database import FinishedHand


class FakeStore:
    """An :class:`AsyncStore` in memory. ``refuse`` writes are refused unwritten (``fenced``:
    as a cluster node that lost the table); ``lose`` writes are stored but answered with a
    failure (a lost COMMIT answer); while ``down``, reads fail."""

    def __init__(self) -> None:
        self.tables: dict[str, StoredTable] = {}
        self.writes = 0
        self.refuse = 0
        self.lose = 0
        self.fenced = False
        self.down = False

    async def _write(self, write: Callable[[], None]) -> None:
        await asyncio.sleep(0)
        if self.refuse:
            self.refuse -= 1
            error = StoreFenced if self.fenced else StoreUnavailable
            raise error("refused")
        write()
        self.writes += 1
        if self.lose:
            self.lose -= 1
            raise StoreUnavailable("the answer was lost")

    async def create_table(self, code: str, rules: dict[str, Any], settings: dict[str, Any],
                           seed: int) -> None:
        def write() -> None:
            self.tables[code] = StoredTable(code, rules, settings, seed, "waiting",
                                            datetime.now(UTC))
        await self._write(write)

    async def save_seat(self, code: str, seat: StoredSeat) -> None:
        def write() -> None:
            seats = [s for s in self.tables[code].seats if s.seat != seat.seat]
            self.tables[code].seats = sorted([*seats, seat], key=lambda s: s.seat)
        await self._write(write)

    async def free_seat(self, code: str, seat: int) -> None:
        def write() -> None:
            self.tables[code].seats = [s for s in self.tables[code].seats if s.seat != seat]
        await self._write(write)

    async def append(self, code: str, entry: Event, finished_hand: FinishedHand | None,
                     status: str | None) -> None:
        def write() -> None:
            stored = self.tables[code]
            assert entry.seq == len(stored.events) + 1, "a seq already in the log"
            # As a database keeps it: JSON, read back as new objects.
            stored.events.append(Event(entry.seq, entry.kind, json.loads(json.dumps(
                entry.payload))))
            if status is not None:
                stored.status = status
        await self._write(write)

    async def load(self, code: str) -> StoredTable | None:
        await asyncio.sleep(0)
        if self.down:
            raise StoreUnavailable("the database is down")
        stored = self.tables.get(code)
        if stored is None:
            return None
        return StoredTable(stored.code, stored.rules, stored.settings, stored.seed, stored.status,
                           stored.created, list(stored.seats), list(stored.events))

    def log(self, code: str = "unit") -> list[tuple[str, dict[str, Any]]]:
        return [(event.kind, event.payload) for event in self.tables[code].events]


class FakeSocket:
    client_state = WebSocketState.CONNECTED

    async def send_text(self, data: str) -> None:
        pass

    async def close(self, code: int = 1000) -> None:
        pass


def connection() -> Connection:
    return Connection(FakeSocket(), 1024)


async def no_driver(table: Table) -> None:
    """The tests move the match on themselves."""


SERVER = ServerSettings(db="sqlite://", drop_grace=60.0, bot_delay=0.0)
