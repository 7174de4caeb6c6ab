"""A game table: its match (start, actions, the next deal, 继续 and 托管), built from its parts.

The table is the server's authority over one match. Every change goes through a method here
that (1) checks it, leaving everything as it was when it is refused, (2) writes the event to the
store and waits for the commit, and only then (3) broadcasts each connection the view its seat
may see (:meth:`Hand.observation` is the one place hidden cards are redacted). Callers hold
:attr:`Table.lock` around every change and every read of the match, so two changes never
interleave and nobody sees a change before it is committed; while one table waits on the
database, the other tables go on.

:class:`Table` is made of parts, one module each, every one building on the one before:

- :class:`.table_log.EventLog`: the event-sourced log (replay, apply, commit, read back);
- :class:`.seating.Seating`: the seats (join, reclaim, leave, fill, drop timers);
- :class:`.table_views.TableViews`: deadlines and the views (publish, state, info);
- this module: the match, and the table's construction and end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from datetime import UTC
from typing import Any

from ..actions import Action
from ..errors import IllegalAction, Reason
from ..match import Match
from ..record import action_json
from ..ruleset import RuleSet
from ..store import StoredTable
from ..store.async_store import AsyncStore, StoreUnavailable
from ..wire.events import NextEvent, StartEvent
from ..wire.messages import ErrorCode
from ..wire.settings import TableSettings
from ..wire.table import HandSummary
from .config import ServerSettings
from .connections import Answer
from .seats import Seat, TableError
from .security import new_seed
from .table_log import Status
from .table_views import TableViews

log = logging.getLogger(__name__)

__all__ = ["Driver", "Status", "Table"]

Driver = Callable[["Table"], Coroutine[Any, Any, None]]
"""The task that moves a playing table on (:func:`.timers.drive`), given by the lobby."""


_REFUSED: dict[str, tuple[ErrorCode, str]] = {
    "waiting": ("not_started", "the match has not started"),
    "playing": ("already_started", "the match has already started"),
    "finished": ("match_over", "the match is over"),
}


class Table(TableViews):
    """One table and its match; build with :meth:`create` or :meth:`restore`."""

    def __init__(
        self,
        code: str,
        rules: RuleSet,
        settings: TableSettings,
        seed: int,
        store: AsyncStore,
        server: ServerSettings,
        drive: Driver,
    ) -> None:
        self.code = code
        self.rules = rules
        self.settings = settings
        self.store = store
        self.server = server
        self.status: Status = "waiting"
        self.seats = [Seat(n) for n in range(4)]
        self.match: Match | None = None
        self.version = 0
        """Number of events in the log."""
        self.created = time.time()
        """Unix time at which the table was created."""
        self.lock = asyncio.Lock()
        """Held around every change and every read of the match (see the module's docs)."""
        self.driver: asyncio.Task[None] | None = None
        self.closed = False
        """Set by :meth:`close`: the table is no longer served here."""
        self._drive = drive
        self._seed = seed
        self._history: list[HandSummary] = []
        self._start_log()
        self._start_views()

    # -- construction --------------------------------------------------------------------------

    @classmethod
    async def create(
        cls, code: str, rules: RuleSet, settings: TableSettings, store: AsyncStore,
        server: ServerSettings, drive: Driver,
    ) -> Table:
        """A new, stored table waiting for players."""
        table = cls(code, rules, settings, new_seed(), store, server, drive)
        try:
            await store.create_table(code, rules.to_dict(), settings.model_dump(), table._seed)
        except StoreUnavailable:
            raise TableError("unavailable", "the table could not be saved: try again") from None
        return table

    @classmethod
    def restore(
        cls, stored: StoredTable, store: AsyncStore, server: ServerSettings, drive: Driver
    ) -> Table:
        """Rebuild a table exactly as it was by replaying its stored log."""
        table = cls(
            stored.code,
            RuleSet.from_dict(stored.rules),
            TableSettings.from_stored(stored.settings),
            stored.seed,
            store,
            server,
            drive,
        )
        for saved in stored.seats:
            seat = table.seats[saved.seat]
            seat.kind = "human" if saved.kind == "human" else "bot"
            seat.name, seat.bot_level = saved.name, saved.bot_level
            seat.token_hash, seat.account_id = saved.token_hash, saved.account_id
        created = stored.created
        table.created = (created if created.tzinfo else created.replace(tzinfo=UTC)).timestamp()
        table._replay(stored.events)
        table.status = "finished" if stored.status == "finished" else table.status
        table._publish_info()
        return table

    # -- the match -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the match; every seat must be taken."""
        self._require("waiting")
        empty = [seat.number for seat in self.seats if seat.kind is None]
        if empty:
            raise TableError(
                "seats_empty",
                f"seat{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} "
                "empty: seat players or fill them with computer players first",
            )
        self.match = Match(self.rules, self._seed)
        self.status = "playing"
        await self._log(StartEvent())
        for seat in self.seats:
            if seat.kind == "human" and seat.connection is None:
                self.start_drop_timer(seat)
        self.start_driver()
        self.publish()

    def start_driver(self) -> None:
        """Run the table's driver (computer players, timers, next deals) while it plays."""
        if self.status == "playing" and self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(self._drive(self))

    async def act(self, number: int, action: Action, by_computer: bool = False,
                  answer: Answer | None = None) -> None:
        """Apply ``seat``'s action; a player acting again ends their 托管 (until the next
        timeout). Raises :class:`IllegalAction` or :class:`TableError` with nothing changed.
        The view it sends ``answer``'s connection carries the action's ack."""
        self._require("playing")
        await self._check_store()
        record = action_json(number, action)
        landed = self._landed.pop(number, None)
        match = self.match
        assert match is not None
        hand = match.hand
        try:
            if hand.phase == "done":
                raise IllegalAction(Reason("hand_over"))
            hand.apply(number, action)
        except IllegalAction:
            if landed is not None and landed == record:
                return  # a retry of the action stored though its player was told it failed
            raise
        finished = self._settle()
        await self._log_data("action", record, finished)  # an ActionEvent
        if not by_computer:
            self.seats[number].auto, self.seats[number].timeouts = False, 0
        self.publish(answer)

    async def timed_out(self, number: int, action: Action, phase: str) -> None:
        """The seat to act let its timer run out in ``phase``: the computer makes this one
        ``action`` for it (a second timeout in a row in a phase: 托管, :meth:`Seat.time_out`)."""
        self.seats[number].time_out(phase)
        await self.act(number, action, by_computer=True)

    @property
    def between_hands(self) -> bool:
        """True while a finished hand waits for the next deal (its players press 继续)."""
        match = self.match
        return (self.status == "playing" and match is not None and match.hand.phase == "done"
                and not match.finished)

    def set_ready(self, number: int) -> None:
        """The player of ``number`` pressed 继续: deal the next hand once every connected
        player has."""
        self._require("playing")
        if not self.between_hands:
            raise TableError("not_between_hands", "继续 (ready) is for the end of a hand")
        if number not in self.ready:
            self.ready.add(number)
            self.publish()

    @property
    def everyone_ready(self) -> bool:
        """True when every connected player has pressed 继续."""
        return self.ready.issuperset(self.present())

    def set_auto(self, number: int, on: bool) -> None:
        """Switch 托管 on or off for a seat (by its player, or on a turn timeout)."""
        self._require("playing")
        seat = self.seats[number]
        seat.timeouts = 0
        if seat.auto != on:
            seat.auto = on
            self.publish()

    async def next_hand(self) -> None:
        """Deal the next hand once the current one is done."""
        await self._check_store()
        match = self.match
        assert match is not None
        if self.status != "playing" or match.hand.phase != "done" or match.finished:
            return
        match.next_hand()
        await self._log(NextEvent())
        self.ready.clear()
        self.publish()

    def _require(self, status: Status) -> None:
        if self.status != status:
            code, message = _REFUSED[self.status]
            raise TableError(code, message)

    # -- closing -------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the driver and timers (server shutdown); the stored state stays."""
        self.closed = True
        if self.driver is not None:
            self.driver.cancel()
            self.driver = None
        self._stop_drop_timers()
        for connection in list(self.connections):
            connection.close(1001)

