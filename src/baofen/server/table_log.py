"""A table's event-sourced log: the events replayed into the match, each change committed as
one event before anyone sees it, and the log read back after a write whose answer was lost.

:class:`EventLog` is the part of :class:`~baofen.server.tables.Table` that talks to the store
about events; the table gives it its match, seats and views.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Literal

from ..match import Match
from ..ruleset import RuleSet
from ..store import Event
from ..store.accounts import hand_results
from ..store.async_store import AsyncStore, StoreFenced, StoreUnavailable
from ..store.database import FinishedHand
from ..wire.events import ActionEvent, NextEvent, StartEvent, TableEvent, read_event
from ..wire.settings import TableSettings
from ..wire.table import HandSummary
from .connections import Answer
from .seats import Seat, TableError

log = logging.getLogger(__name__)

RECOVER_SECONDS = 1.0
"""How often a table whose write failed asks the store again for its log."""

Status = Literal["waiting", "playing", "finished"]
"""Where a table's match is: not started, playing, or over."""


class EventLog:
    """The log of a :class:`~baofen.server.tables.Table` (a part of it, not used alone)."""

    code: str
    rules: RuleSet
    settings: TableSettings
    store: AsyncStore
    seats: list[Seat]
    match: Match | None
    status: Status
    version: int
    closed: bool
    lock: asyncio.Lock
    _seed: int
    _history: list[HandSummary]

    def _start_log(self) -> None:
        self._stale = False
        """A write failed: the stored log may hold more than memory (read it before a change)."""
        self._unsure: Event | None = None
        """The event whose commit failed without an answer (it may be stored)."""
        self._landed: dict[int, dict[str, Any]] = {}
        """Each seat's action found stored after its player was told it failed (its record)."""
        self._recovery: asyncio.Task[None] | None = None
        self._events: list[Event] = []
        """The committed log: a refused event is undone by replaying it, without the store."""

    def publish(self, answer: Answer | None = None) -> None:
        """Show every connection the change (the table's views)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop serving the table here (the table)."""
        raise NotImplementedError

    async def _store(self, write: Coroutine[Any, Any, None]) -> None:
        """Make one write of the table's other rows (its seats), refused as a whole."""
        try:
            await write
        except StoreUnavailable as error:
            raise self._refused(error, "the table could not be saved: try again") from None

    def _refused(self, error: StoreUnavailable, message: str) -> TableError:
        """The answer to a refused write. A fenced one means another node owns the table now
        (cluster mode): it is no longer served here, so that its clients reconnect to the
        owner at once instead of acting on what this node last knew."""
        if isinstance(error, StoreFenced):  # once the refusal is queued to the client
            asyncio.get_running_loop().call_soon(self.close)
        return TableError("unavailable", message)

    def _replay(self, events: list[Event]) -> None:
        self.match = None
        self.status = "waiting"
        self._history = []
        for entry in events:
            self._apply_event(read_event(entry.kind, entry.payload))
        self._events = list(events)
        self.version = events[-1].seq if events else 0

    def _apply_event(self, event: TableEvent) -> None:
        if isinstance(event, StartEvent):
            self.match = Match(self.rules, self._seed)
            self.status = "playing"
            return
        match = self.match
        assert match is not None, f"a {event.kind} event before the start"
        if isinstance(event, ActionEvent):
            recorded = event.payload
            match.hand.apply(recorded.seat, recorded.to_action())
            self._settle()
        elif isinstance(event, NextEvent):
            match.next_hand()
        else:
            match.set_away(event.payload.seat, event.payload.away)

    def _settle(self) -> FinishedHand | None:
        """After an action: the finished hand to store, when it finished one."""
        match = self.match
        assert match is not None
        if match.hand.phase != "done":
            return None
        entry = match.history[-1]
        summary = HandSummary.of(entry)
        self._history.append(summary)
        if match.finished:
            self.status = "finished"
        results = hand_results(
            self.code, entry.number, self.rules.variant, self.settings.rated,
            self.settings.private, [seat.result() for seat in self.seats], entry.hand.result,
            entry.deltas,
        )
        return FinishedHand(
            entry.number, summary.model_dump(mode="json"), match.hand.to_record(), results
        )

    # -- the log -------------------------------------------------------------------------------

    async def _log(self, event: TableEvent, finished: FinishedHand | None = None) -> None:
        """Commit one event that was just applied in memory; on failure, undo it by replaying
        the committed log (no database needed), so that the refusal changes nothing. A failed
        commit may have been stored after all (its answer lost): the log is read back at once,
        and an event found there is the change's real outcome."""
        await self._log_data(event.kind, event.payload_data(), finished)

    async def _log_data(self, kind: str, payload: dict[str, Any],
                        finished: FinishedHand | None = None) -> None:
        """:meth:`_log` of an event given as its ``kind`` and JSON ``payload`` (an action's
        record, :func:`~baofen.record.action_json`: no model built on the hot path)."""
        entry = Event(self.version + 1, kind, payload)
        status = None
        if kind == "start" or self.status == "finished":
            status = self.status
        try:
            await self.store.append(self.code, entry, finished, status)
        except StoreUnavailable as error:
            log.warning("table %s: could not store event %d: %s", self.code, entry.seq, error)
            # Fenced: refused unwritten, for certain. Otherwise the stored log says what
            # happened, when the store answers; until then memory goes back to the last commit.
            if isinstance(error, StoreFenced):
                self._replay(self._events)
            else:
                self._stale, self._unsure = True, entry
                if not await self._reload():
                    self._replay(self._events)
                    self._recover_later()
                elif entry in self._events:
                    return
            raise self._refused(error, "the game could not be saved: try again") from None
        self._events.append(entry)
        self.version = entry.seq

    async def _reload(self) -> bool:
        """After a failed write, rebuild the table from its stored log; False while the store
        does not answer."""
        try:
            stored = await self.store.load(self.code)
        except StoreUnavailable:
            return False
        assert stored is not None
        self._replay(stored.events)
        self._stale, self._unsure = False, None
        return True

    async def _check_store(self) -> None:
        """Before a change: after a failed write, reload the stored log and show every view
        the state it holds (timers re-armed from it). An action found stored there though its
        player was told it failed is remembered, so that the player's retry is answered ack."""
        if not self._stale:
            return
        before, unsure = self.version, self._unsure
        if not await self._reload():
            raise TableError("unavailable", "the game cannot be saved now: try again") from None
        if unsure is not None and unsure in self._events:
            event = read_event(unsure.kind, unsure.payload)
            if isinstance(event, ActionEvent):
                self._landed[event.payload.seat] = unsure.payload
        if self.version != before:
            self.publish()

    def _recover_later(self) -> None:
        """Reload a stale table as soon as the store answers, without waiting for a change,
        so that no view stays behind the log and no seat is timed out unaware."""
        async def recover() -> None:
            while self._stale and not self.closed:
                await asyncio.sleep(RECOVER_SECONDS)
                async with self.lock:
                    with contextlib.suppress(TableError):
                        await self._check_store()

        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.get_running_loop().create_task(recover())
