"""A table in process: a store double held in memory (no database) that can refuse a write, or
store one and lose its answer, or not answer reads; a connection without a socket; the tables
the tests drive directly with asyncio; and the store and lobby of a cluster node run in
process against the shared Redis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, cast

import redis
from starlette.websockets import WebSocketState

from baofen import RuleSet
from baofen.bots import make_bot
from baofen.server import ServerConfig
from baofen.server.table import Table
from baofen.server.transport.connections import Connection
from baofen.store import Event, StoredSeat, StoredTable
from baofen.store.async_store import AsyncStore, StoreFenced, StoreUnavailable
from baofen.store.database import FinishedHand
from baofen.wire.settings import TableSettings

from .cluster import SHARED_REDIS
from .harness import run_async


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
        self.fences: dict[str, int] | None = None
        """Cluster mode: the tables this node owns (None: one server)."""

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


def received(connection: Connection) -> list[dict[str, Any]]:
    """The messages queued to ``connection`` since the last call."""
    queue = connection._queue
    out = []
    while not queue.empty():
        text = queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def no_driver(table: Table) -> None:
    """The tests move the match on themselves."""


SERVER = ServerConfig(db="sqlite://", drop_grace=60.0, bot_delay=0.0)


async def new_table(store: FakeStore, server: ServerConfig = SERVER) -> Table:
    settings = TableSettings(bot_level="random", bid_seconds=None, kitty_seconds=None,
                             play_seconds=None)
    return await Table.create("unit", RuleSet.baofen(hands=2), settings,
                              cast(AsyncStore, store), server, no_driver)


async def started(store: FakeStore) -> tuple[Table, Connection, str]:
    """A started table: a player in seat 0, computer players in the others."""
    table = await new_table(store)
    me = connection()
    token = await table.join(me, 0, "me")
    await table.fill_bots("random")
    await table.start()
    return table, me, token


def state_of(table: Table, seat: int | None = 0) -> dict[str, Any]:
    view = table.views.state(seat)
    view["table"]["deadline"] = view["table"]["active"] = view["table"]["created"] = None
    return view


def legal(table: Table, seed: int = 1) -> tuple[int, Any]:
    """The seat to act and a legal action for it."""
    assert table.match is not None
    hand = table.match.hand
    seat = hand.to_act
    assert seat is not None
    return seat, make_bot("random", seed=seed).act(hand.observation(seat))


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    run_async(test())


class NodeStore:
    """The store of a cluster node cut from the database: claims answer, the scan for orphaned
    tables waits until ``never`` is set (the end of the test)."""

    def __init__(self) -> None:
        self.fences: dict[str, int] = {}
        self.never = asyncio.Event()

    async def claim(self, code: str, fence: int) -> int | None:
        return None

    async def unfinished(self) -> list[str]:
        await self.never.wait()
        return []


class NodeLobby:
    """The lobby of a cluster node: the tables it serves, nothing to start or close."""

    def __init__(self, store: NodeStore) -> None:
        self.store = store
        self.tables: dict[str, Any] = {}

    def start(self) -> None:
        pass

    async def close(self) -> None:
        pass


def clear_redis(prefix: str) -> None:
    """Delete a test's keys (``prefix``) from the shared Redis."""
    client = redis.Redis.from_url(SHARED_REDIS)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()
