"""A game table: the server's authority over one match, made of its parts.

Every change goes through a method here that (1) checks it, leaving everything as it was when
it is refused, (2) writes it to the store and waits for the commit, and only then (3)
publishes it: each connection is sent the view its seat may see (:meth:`Hand.observation` is
the one place hidden cards are redacted). Callers hold :attr:`Table.lock` around every change
and every read of the match, so two changes never interleave and nobody sees a change before
it is committed; while one table waits on the database, the other tables go on.

A table holds its parts, one module each, and is the only one to use them together:

- :attr:`Table.log` (:class:`.log.TableLog`): the match and its log (replay, commit, read back);
- :attr:`Table.seating` (:class:`.seating.Seating`): the seats and connections (join, fill…);
- :attr:`Table.views` (:class:`.views.TableViews`): what each connection is sent, and the
  table's public information;
- :attr:`Table.timers` (:class:`.timers.Timers`): the deadline, the driver, the drop timers.

An action's path: :meth:`Table.act` checks and applies it to the match, commits it
(:meth:`.log.TableLog.commit_data`, the store's ``append``), then :meth:`Table.publish` arms the
next deadline and broadcasts the views (:meth:`.views.TableViews.broadcast`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC
from typing import Any

from ...actions import Action
from ...bots import BotLevel
from ...errors import IllegalAction, Reason
from ...match import Match
from ...record import action_json
from ...ruleset import RuleSet
from ...store import StoredTable
from ...store.accounts import Account
from ...store.async_store import AsyncStore, StoreUnavailable
from ...wire.events import Away, AwayEvent, NextEvent, StartEvent
from ...wire.settings import TableSettings
from ...wire.table import TableInfo
from ..config import ServerConfig
from ..security.tokens import new_seed
from ..transport.broadcast import Answer
from ..transport.connections import Connection
from .log import Status, TableLog
from .seating import Seating
from .seats import Seat, TableError
from .timers import Timers
from .views import TableViews

__all__ = ["Driver", "Status", "Table"]

Driver = Callable[["Table"], Coroutine[Any, Any, None]]
"""The task that moves a playing table on (:func:`.driver.drive`), given by the lobby."""

RECOVER_SECONDS = 1.0
"""How often a table whose write failed asks the store again for its log."""


class Table:
    """One table and its match; build with :meth:`create` or :meth:`restore`."""

    def __init__(
        self, code: str, rules: RuleSet, settings: TableSettings, seed: int, store: AsyncStore,
        config: ServerConfig, drive: Driver,
    ) -> None:
        self.code = code
        self.rules = rules
        self.settings = settings
        self.store = store
        self.config = config
        self.seats = [Seat(n) for n in range(4)]
        self.lock = asyncio.Lock()
        """Held around every change and every read of the match (see the module's docs)."""
        self.closed = False
        """Set by :meth:`close`: the table is no longer served here."""
        self.created = time.time()
        """Unix time at which the table was created."""
        self.active = self.created
        """Unix time of the last change (or connection)."""
        self.ready: set[int] = set()
        """Between hands: the seats whose players pressed 继续 (ready)."""
        self.log = TableLog(code, rules, settings, seed, store, self.seats, self.close)
        self.seating = Seating(self.seats, self.log, config)
        self.timers = Timers()
        self.views = TableViews(self)
        self._drive = drive
        self.views.publish_info()

    # -- construction --------------------------------------------------------------------------

    @classmethod
    async def create(
        cls, code: str, rules: RuleSet, settings: TableSettings, store: AsyncStore,
        config: ServerConfig, drive: Driver, seed: int | None = None,
    ) -> Table:
        """A new, stored table waiting for players; its match plays ``seed``'s deals (default:
        a fresh seed)."""
        table = cls(code, rules, settings, new_seed() if seed is None else seed, store, config,
                    drive)
        try:
            await store.create_table(code, rules.to_dict(), settings.model_dump(), table.log.seed)
        except StoreUnavailable:
            raise TableError("unavailable", "the table could not be saved: try again") from None
        return table

    @classmethod
    def restore(
        cls, stored: StoredTable, store: AsyncStore, config: ServerConfig, drive: Driver
    ) -> Table:
        """Rebuild a table exactly as it was by replaying its stored log."""
        table = cls(
            stored.code, RuleSet.from_dict(stored.rules),
            TableSettings.from_stored(stored.settings), stored.seed, store, config, drive,
        )
        table.seating.restore(stored.seats)
        created = stored.created
        table.created = (created if created.tzinfo else created.replace(tzinfo=UTC)).timestamp()
        table.log.replay(stored.events)
        if stored.status == "finished":
            table.log.status = "finished"
        table.views.publish_info()
        return table

    # -- the match, as the log holds it --------------------------------------------------------

    @property
    def match(self) -> Match | None:
        """The match (None before the start)."""
        return self.log.match

    @property
    def status(self) -> Status:
        """Where the match is: waiting, playing or finished."""
        return self.log.status

    @property
    def version(self) -> int:
        """Number of events in the log."""
        return self.log.version

    @property
    def public(self) -> TableInfo:
        """The table's information as last published (what REST serves)."""
        return self.views.public

    @property
    def between_hands(self) -> bool:
        """True while a finished hand waits for the next deal (its players press 继续)."""
        match = self.match
        return (self.status == "playing" and match is not None and match.hand.phase == "done"
                and not match.finished)

    @property
    def everyone_ready(self) -> bool:
        """True when every connected player has pressed 继续."""
        return self.ready.issuperset(self.seating.present())

    # -- changes of the match ------------------------------------------------------------------

    async def start(self) -> None:
        """Start the match; every seat must be taken."""
        self.log.require("waiting")
        empty = [seat.number for seat in self.seats if seat.kind is None]
        if empty:
            raise TableError(
                "seats_empty",
                f"seat{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} "
                "empty: seat players or fill them with computer players first",
            )
        self.log.match = Match(self.rules, self.log.seed)
        self.log.status = "playing"
        await self._commit(self.log.commit(StartEvent()))
        for seat in self.seats:
            if seat.kind == "human" and seat.connection is None:
                self.start_drop_timer(seat)
        self.start_driver()
        self.publish()

    async def act(self, number: int, action: Action, by_computer: bool = False,
                  answer: Answer | None = None) -> None:
        """Apply seat ``number``'s action; a player acting again ends their 托管 (until the
        next timeout). Raises :class:`IllegalAction` or :class:`TableError` with nothing
        changed. The view it sends ``answer``'s connection carries the action's ack."""
        self.log.require("playing")
        await self._catch_up()
        record = action_json(number, action)
        landed = self.log.landed.pop(number, None)
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
        finished = self.log.settle()
        await self._commit(self.log.commit_data("action", record, finished))  # an ActionEvent
        if not by_computer:
            self.seats[number].auto, self.seats[number].timeouts = False, 0
        self.publish(answer)

    async def timed_out(self, number: int, action: Action, phase: str) -> None:
        """The seat to act let its timer run out in ``phase``: the computer makes this one
        ``action`` for it (a second timeout in a row in a phase: 托管, :meth:`Seat.time_out`)."""
        self.seats[number].time_out(phase)
        await self.act(number, action, by_computer=True)

    def set_ready(self, number: int) -> None:
        """The player of ``number`` pressed 继续: deal the next hand once every connected
        player has."""
        self.log.require("playing")
        if not self.between_hands:
            raise TableError("not_between_hands", "继续 (ready) is for the end of a hand")
        if number not in self.ready:
            self.ready.add(number)
            self.publish()

    def set_auto(self, number: int, on: bool) -> None:
        """Switch 托管 on or off for a seat (by its player, or on a turn timeout)."""
        self.log.require("playing")
        seat = self.seats[number]
        seat.timeouts = 0
        if seat.auto != on:
            seat.auto = on
            self.publish()

    async def next_hand(self) -> None:
        """Deal the next hand once the current one is done."""
        await self._catch_up()
        match = self.match
        assert match is not None
        if self.status != "playing" or match.hand.phase != "done" or match.finished:
            return
        match.next_hand()
        await self._commit(self.log.commit(NextEvent()))
        self.ready.clear()
        self.publish()

    async def _set_away(self, number: int, away: bool) -> None:
        """A player left during the match (逃跑: the computer plays their seat) or is back."""
        await self._catch_up()
        match = self.match
        assert match is not None
        match.set_away(number, away)
        await self._commit(self.log.commit(AwayEvent(payload=Away(seat=number, away=away))))

    # -- changes of the seats ------------------------------------------------------------------

    async def join(self, connection: Connection, number: int, name: str) -> str:
        """Seat a player in an empty seat before the start; returns their seat token (the
        caller publishes the change once it has answered the connection)."""
        await self.seating.check_rated(connection.account)
        token = await self.seating.seat_player(number, name, connection.account)
        self.seating.attach(connection, self.seats[number])
        return token

    async def seat_player(self, number: int, name: str, account: Account | None = None,
                          hashed: str | None = None) -> str:
        """Seat a player not connected yet (quick play: they connect with the token returned;
        a tournament's guest with the token they hold, ``hashed``)."""
        return await self.seating.seat_player(number, name, account, hashed)

    async def reclaim(self, connection: Connection, token: str | None) -> tuple[Seat, str]:
        """Give the seat whose token this is (None: bound to the connection's account) back to
        its player (after a drop, a restart, on another device); the seat and its token (a new
        one after a reclaim by account). The caller publishes the change once it has answered
        the connection."""
        seat, token = await self.seating.claim(connection.account, token)
        if self.match is not None and seat.number in self.match.away and self.status == "playing":
            await self._set_away(seat.number, False)
        self.seating.take_over(connection, seat)
        return seat, token

    def watch(self, connection: Connection) -> None:
        """Add a spectator."""
        self.seating.watch(connection)

    async def fill_bots(self, level: BotLevel | None,
                        seeds: dict[int, int] | None = None) -> list[int]:
        """Seat a computer player of ``level`` (default: the table's) in every empty seat, with
        the seed ``seeds`` gives its seat (default: a fresh one)."""
        filled = await self.seating.fill_bots(level, seeds)
        self.publish()
        return filled

    async def leave(self, connection: Connection) -> None:
        """The connection's player leaves: the seat is freed before the start; during the
        match the computer plays it (逃跑) until the player reclaims it."""
        number = connection.seat
        assert number is not None
        if self.status == "waiting":
            await self.seating.free(number)
        elif self.status == "playing":
            await self._set_away(number, True)
        self.seating.stand_up(connection)
        self.publish()

    def disconnect(self, connection: Connection) -> None:
        """A connection closed; a player who does not come back in time has left (逃跑)."""
        seat = self.seating.disconnect(connection)
        if seat is not None:
            self.start_drop_timer(seat)
            self.publish()

    # -- timers --------------------------------------------------------------------------------

    def start_driver(self) -> None:
        """Run the table's driver (computer players, timers, next deals) while it plays."""
        if self.status == "playing":
            self.timers.start_driver(lambda: self._drive(self))

    def start_drop_timer(self, seat: Seat) -> None:
        """Give an absent player ``drop_grace`` seconds to come back before they have left."""
        if self.status != "playing" or seat.drop_timer is not None or self.closed:
            return
        self.timers.start_drop_timer(seat, self.config.drop_grace, self._dropped)

    async def _dropped(self, seat: Seat) -> None:
        async with self.lock:
            seat.drop_timer = None
            match = self.match
            if seat.connection is not None or match is None or self.status != "playing":
                return
            if seat.number not in match.away:
                try:
                    await self._set_away(seat.number, True)
                except TableError:  # the store is down: try again after another grace
                    self.start_drop_timer(seat)
                    return
                self.publish()

    def _arm_deadline(self) -> None:
        """Time the seat to act (between hands: the players not ready yet) out."""
        match = self.match
        seat = match.hand.to_act if match is not None and self.status == "playing" else None
        seconds: float | None
        if self.between_hands:
            # One player may take all the time they want; several wait for each other so long.
            seconds = self.settings.ready_seconds if len(self.seating.present()) > 1 else None
        elif seat is None or self.seating.computer_plays(seat):
            seconds = None
        else:
            assert match is not None
            seconds = self.settings.turn_seconds(match.hand.phase)
        self.timers.arm((self.version, seat), seconds)

    # -- the store -----------------------------------------------------------------------------

    async def _commit(self, commit: Awaitable[None]) -> None:
        """Await a commit of the log. Refused and not read back: reloaded, unasked, once the
        store answers. Read back past what the views showed (a write given up on landed):
        shown at once."""
        shown = self.log.version
        try:
            await commit
        except TableError:
            if self.log.stale:
                self.timers.recover(self._recover)
            elif self.log.version != shown:
                self.publish()
            raise

    async def _recover(self) -> None:
        while self.log.stale and not self.closed:
            await asyncio.sleep(RECOVER_SECONDS)
            async with self.lock:
                with contextlib.suppress(TableError):
                    await self._catch_up()

    async def _catch_up(self) -> None:
        """Before a change: after a failed write, the log read back and shown when it held more."""
        if await self.log.catch_up():
            self.publish()

    # -- what the table shows ------------------------------------------------------------------

    def publish(self, answer: Answer | None = None) -> None:
        """After any change: the seat to act's deadline, a broadcast (carrying ``answer``, the
        ack of the action that made the change), and a nudge to the driver."""
        self._arm_deadline()
        self.active = time.time()
        self.views.broadcast(answer)
        self.timers.changed.set()

    # -- closing -------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the driver and timers (server shutdown); the stored state stays."""
        self.closed = True
        self.timers.stop(self.seats)
        for connection in list(self.seating.connections):
            connection.close(1001)
