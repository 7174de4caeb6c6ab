"""A table's match and its event-sourced log: the events replayed into the match, each change
committed as one event before anyone sees it, and the log read back after a write whose answer
was lost.

:class:`TableLog` is the part of a :class:`~.table.Table` that holds the match and talks to the
store; it knows the table's seats only to name who held them in a finished hand's results.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Literal

from ...match import Match
from ...ruleset import RuleSet
from ...store import Event
from ...store.accounts import hand_results
from ...store.async_store import AsyncStore, StoreFenced, StoreUnavailable
from ...store.database import FinishedHand
from ...wire.events import ActionEvent, NextEvent, StartEvent, TableEvent, read_event
from ...wire.messages import ErrorCode
from ...wire.settings import TableSettings
from ...wire.table import HandSummary
from .seats import Seat, TableError

log = logging.getLogger(__name__)

Status = Literal["waiting", "playing", "finished"]
"""Where a table's match is: not started, playing, or over."""

_REFUSED: dict[str, tuple[ErrorCode, str]] = {
    "waiting": ("not_started", "the match has not started"),
    "playing": ("already_started", "the match has already started"),
    "finished": ("match_over", "the match is over"),
}


class TableLog:
    """The match of one table and its log in ``store``. ``fenced`` is called (once the
    refusal is queued to the client) when the store refuses a write because another node owns
    the table now (cluster mode): the table then stops being served here."""

    def __init__(
        self, code: str, rules: RuleSet, settings: TableSettings, seed: int, store: AsyncStore,
        seats: list[Seat], fenced: Callable[[], None],
    ) -> None:
        self.code = code
        self.rules = rules
        self.settings = settings
        self.seed = seed
        """The match's seed (the deals follow from it, so it never leaves the server)."""
        self.store = store
        self.seats = seats
        self.match: Match | None = None
        self.status: Status = "waiting"
        self.version = 0
        """Number of events in the log."""
        self.history: list[HandSummary] = []
        """The finished hands' summaries."""
        self.landed: dict[int, dict[str, Any]] = {}
        """Each seat's action found stored after its player was told it failed (its record)."""
        self.stale = False
        """A write failed: the stored log may hold more than memory (read it before a change)."""
        self._unsure: Event | None = None
        """The event whose commit failed without an answer (it may be stored)."""
        self._events: list[Event] = []
        """The committed log: a refused event is undone by replaying it, without the store."""
        self._fenced = fenced

    @property
    def owned(self) -> bool:
        """True while this server may write the table: always for one server; a cluster node
        while it holds the table's fencing number (:attr:`AsyncStore.fences`)."""
        fences = self.store.fences
        return fences is None or self.code in fences

    def require(self, status: Status) -> None:
        """Refuse a request unless the match is ``status``."""
        if self.status != status:
            code, message = _REFUSED[self.status]
            raise TableError(code, message)

    # -- the match in memory -------------------------------------------------------------------

    def replay(self, events: list[Event]) -> None:
        """Rebuild the match from ``events``, the committed log."""
        self.match = None
        self.status = "waiting"
        self.history = []
        for entry in events:
            self._apply(read_event(entry.kind, entry.payload))
        self._events = list(events)
        self.version = events[-1].seq if events else 0

    def _apply(self, event: TableEvent) -> None:
        if isinstance(event, StartEvent):
            self.match = Match(self.rules, self.seed)
            self.status = "playing"
            return
        match = self.match
        assert match is not None, f"a {event.kind} event before the start"
        if isinstance(event, ActionEvent):
            recorded = event.payload
            match.hand.apply(recorded.seat, recorded.to_action())
            self.settle()
        elif isinstance(event, NextEvent):
            match.next_hand()
        else:
            match.set_away(event.payload.seat, event.payload.away)

    def settle(self) -> FinishedHand | None:
        """After an action: the finished hand to store, when it finished one."""
        match = self.match
        assert match is not None
        if match.hand.phase != "done":
            return None
        entry = match.history[-1]
        summary = HandSummary.of(entry)
        self.history.append(summary)
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

    # -- writes --------------------------------------------------------------------------------

    async def write(self, write: Coroutine[Any, Any, None]) -> None:
        """Make one write of the table's other rows (its seats), refused as a whole."""
        try:
            await write
        except StoreUnavailable as error:
            raise self._refused(error, "the table could not be saved: try again") from None

    def _refused(self, error: StoreUnavailable, message: str) -> TableError:
        """The answer to a refused write; a fenced one ends the table's service here, so that
        its clients reconnect to the owner at once instead of acting on what this node last
        knew."""
        if isinstance(error, StoreFenced):  # once the refusal is queued to the client
            asyncio.get_running_loop().call_soon(self._fenced)
        return TableError("unavailable", message)

    async def commit(self, event: TableEvent, finished: FinishedHand | None = None) -> None:
        """Commit one event that was just applied in memory; on failure, undo it by replaying
        the committed log (no database needed), so that the refusal changes nothing. A failed
        commit may have been stored after all (its answer lost): the log is read back at once,
        and an event found there is the change's real outcome. Still :attr:`stale` after a
        refusal: the store did not answer the read either."""
        await self.commit_data(event.kind, event.payload_data(), finished)

    async def commit_data(self, kind: str, payload: dict[str, Any],
                          finished: FinishedHand | None = None) -> None:
        """:meth:`commit` of an event given as its ``kind`` and JSON ``payload`` (an action's
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
                self.replay(self._events)
            else:
                self.stale, self._unsure = True, entry
                if not await self._reload():
                    self.replay(self._events)
                elif entry in self._events:
                    return
            raise self._refused(error, "the game could not be saved: try again") from None
        self._events.append(entry)
        self.version = entry.seq

    # -- reading the log back ------------------------------------------------------------------

    async def _reload(self) -> bool:
        """After a failed write, rebuild the match from its stored log; False while the store
        does not answer."""
        try:
            stored = await self.store.load(self.code)
        except StoreUnavailable:
            return False
        assert stored is not None
        self.replay(stored.events)
        self.stale, self._unsure = False, None
        return True

    async def catch_up(self) -> bool:
        """Before a change: after a failed write, reload the stored log; True when it held
        more than memory did (every view must be shown it). An action found stored there though
        its player was told it failed is remembered (:attr:`landed`), so that the player's
        retry is answered ack. :class:`TableError` while the store does not answer."""
        if not self.stale:
            return False
        before, unsure = self.version, self._unsure
        if not await self._reload():
            raise TableError("unavailable", "the game cannot be saved now: try again") from None
        if unsure is not None and unsure in self._events:
            event = read_event(unsure.kind, unsure.payload)
            if isinstance(event, ActionEvent):
                self.landed[event.payload.seat] = unsure.payload
        return self.version != before
