"""The lobby: every table the server knows, by code; creation, listing, expiry of tables nobody
started, and resuming after a restart. Everything here runs on the event loop.

In cluster mode the lobby holds only the tables this node owns (see :mod:`..cluster`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from ...accounts.usernames import DELETED_NAME
from ...ruleset import RuleSet
from ...store.async_store import AsyncStore, StoreUnavailable
from ...wire.settings import TableSettings
from ...wire.table import ListedTable, TableInfo
from ..config import ServerConfig
from ..security.tokens import new_table_code
from ..table.driver import drive
from ..table.seats import TableError
from ..table.table import Table

log = logging.getLogger(__name__)

LISTED_QUIET_SECONDS = 600.0
"""A table nobody has been at for this long leaves the open-table list (its link still works)."""


def listed(infos: list[TableInfo]) -> list[ListedTable]:
    """The open-table list's entries: tables with a free seat first, then the latest active."""
    entries = [ListedTable.of(info) for info in infos]
    return sorted(entries, key=lambda entry: (not entry.free_seats, -entry.active))


class Lobby:
    """The tables of one server, backed by ``store``.

    ``adopt`` (cluster mode) makes this node the owner of a new table before anything else is
    written to it (raises :class:`TableError` when it cannot): the node's
    :meth:`~..cluster.ownership.Ownership.adopt`."""

    def __init__(self, store: AsyncStore, config: ServerConfig,
                 adopt: Callable[[str], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.config = config
        self.tables: dict[str, Table] = {}
        self._creating = 0
        """Tables being stored now (they count against ``max_tables`` already)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.adopt = adopt

    async def create(self, rules: RuleSet, settings: TableSettings,
                     seed: int | None = None) -> Table:
        """A new table, stored before it is returned; ``seed``: its match's (default: fresh)."""
        self._forget_finished()
        open_tables = sum(t.status != "finished" for t in self.tables.values())
        if open_tables + self._creating >= self.config.max_tables:
            raise TableError("unavailable", "the server has too many open tables; try later")
        self._creating += 1
        try:
            table = await Table.create(
                new_table_code(), rules, settings, self.store, self.config, drive, seed
            )
            if self.adopt is not None:
                await self.adopt(table.code)
        finally:
            self._creating -= 1
        self.tables[table.code] = table
        return table

    async def expire(self) -> None:
        """Forget every table still waiting ``table_expiry`` seconds after it was created, with
        nobody connected; it is marked expired in the store and never comes back."""
        cutoff = time.time() - self.config.table_expiry
        for table in list(self.tables.values()):
            connections = table.seating.connections
            if table.status == "waiting" and table.created < cutoff and not connections:
                async with table.lock:
                    if table.status != "waiting" or connections:
                        continue
                    try:
                        await self.store.expire(table.code)
                    except StoreUnavailable:
                        return  # the next sweep tries again
                    if self.tables.get(table.code) is table:
                        del self.tables[table.code]
                    table.close()

    def _forget_finished(self) -> None:
        """Drop finished tables nobody watches from memory (:meth:`get` reloads them)."""
        for code in [c for c, t in self.tables.items()
                     if t.status == "finished" and not t.seating.connections]:
            self.tables.pop(code).close()

    async def get(self, code: str) -> Table | None:
        """The table of ``code`` (loaded from the store when it is not in memory), or None
        (also for an expired table). :class:`StoreUnavailable` when the store cannot say."""
        table = self.tables.get(code)
        if table is None and 0 < len(code) <= 32:
            stored = await self.store.load(code)
            table = self.tables.get(code)  # loaded by another request meanwhile
            if table is None and stored is not None and stored.status != "expired":
                table = Table.restore(stored, self.store, self.config, drive)
                self.tables[code] = table
                table.start_driver()
        return table

    async def forget_account(self, account_id: int) -> None:
        """The tables in memory forget a deleted account, as the store did: its seats stay,
        under the deleted player's name."""
        for table in list(self.tables.values()):
            async with table.lock:
                seats = [seat for seat in table.seats if seat.account_id == account_id]
                for seat in seats:
                    seat.account_id, seat.name = None, DELETED_NAME
                if seats:
                    table.publish()

    def close_watchers(self, codes: list[str], account_id: int, close_code: int) -> None:
        """Close the connections of ``account_id`` that watch the tables of ``codes`` served
        here (a seat it plays stays its own)."""
        for code in codes:
            table = self.tables.get(code)
            for connection in list(table.seating.connections) if table is not None else []:
                if (connection.role != "player" and connection.account is not None
                        and connection.account.id == account_id):
                    connection.close(close_code)

    def listing(self) -> list[TableInfo]:
        """Public information (as last published) of every open table that is not private and
        that somebody has been at lately."""
        now = time.monotonic()
        return [
            table.public
            for table in self.tables.values()
            if not table.settings.private and table.status != "finished"
            and (table.seating.connections
                 or now - table.seating.quiet_since < LISTED_QUIET_SECONDS)
        ]

    async def take(self, code: str) -> Table | None:
        """:meth:`get` a table to serve it again (after a restart, or a failover in cluster
        mode): its absent players get their grace to come back before they have left."""
        table = await self.get(code)
        if table is not None and table.status == "playing":
            for seat in table.seats:
                if seat.kind == "human" and seat.connection is None:
                    table.start_drop_timer(seat)
        return table

    async def resume(self) -> None:
        """Load every unfinished table from the store, set its match going again, and
        :meth:`start` the sweep."""
        for code in await self.store.unfinished():
            await self.take(code)
        log.info("resumed %d tables", len(self.tables))
        self.start()

    def start(self) -> None:
        """Start the sweep that expires tables nobody started. (A node of a cluster starts
        only this: it takes its tables when they are asked for, since another node may own
        them.)"""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        period = min(60.0, max(0.05, self.config.table_expiry / 4))
        while True:
            await self.expire()
            await asyncio.sleep(period)

    async def close(self) -> None:
        """Stop every table's tasks (shutdown); everything is already stored."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in self.tables.values():
            table.close()
