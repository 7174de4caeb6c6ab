"""The lobby: every table the server knows, by code; creation, listing, and resuming after a
restart."""

from __future__ import annotations

import logging
import time

from ..ruleset import RuleSet
from ..store import Store
from ..wire.table import TableInfo
from .config import ServerSettings
from .security import new_table_code
from .table_settings import TableSettings
from .tables import Table, TableError
from .timers import drive

log = logging.getLogger(__name__)

LISTED_QUIET_SECONDS = 600.0
"""A table nobody has been at for this long leaves the open-table list (its link still works)."""


class Lobby:
    """The tables of one server, backed by ``store``."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}

    def create(self, rules: RuleSet, settings: TableSettings) -> Table:
        """A new table, stored before it is returned."""
        self._forget_finished()
        open_tables = sum(t.status != "finished" for t in self.tables.values())
        if open_tables >= self.settings.max_tables:
            raise TableError("unavailable", "the server has too many open tables; try later")
        table = Table.create(
            new_table_code(), rules, settings, self.store, self.settings, drive
        )
        self.tables[table.code] = table
        return table

    def _forget_finished(self) -> None:
        """Drop finished tables nobody watches from memory (:meth:`get` reloads them)."""
        for code in [c for c, t in self.tables.items()
                     if t.status == "finished" and not t.connections]:
            self.tables.pop(code).close()

    def get(self, code: str) -> Table | None:
        """The table of ``code`` (loaded from the store when it is not in memory), or None."""
        table = self.tables.get(code)
        if table is None and 0 < len(code) <= 32:
            stored = self.store.load(code)
            if stored is not None:
                table = Table.restore(stored, self.store, self.settings, drive)
                self.tables[code] = table
                table.start_driver()
        return table

    def listing(self) -> list[TableInfo]:
        """Public information of every open table that is not private and that somebody has
        been at lately."""
        now = time.monotonic()
        return [
            table.info()
            for table in self.tables.values()
            if not table.settings.private and table.status != "finished"
            and (table.connections or now - table.quiet_since < LISTED_QUIET_SECONDS)
        ]

    def resume(self) -> None:
        """Load every unfinished table from the store and set its match going again."""
        for code in self.store.unfinished():
            table = self.get(code)
            if table is not None and table.status == "playing":
                for seat in table.seats:
                    if seat.kind == "human":
                        table.start_drop_timer(seat)
        log.info("resumed %d tables", len(self.tables))

    def close(self) -> None:
        """Stop every table's tasks (shutdown); everything is already stored."""
        for table in self.tables.values():
            table.close()
