"""A game table: seats, the match, its event log, and the views sent to each connection.

The table is the server's authority over one match. Every change goes through a method here
that (1) checks it, leaving everything as it was when it is refused, (2) writes the event to the
store and waits for the commit, and only then (3) broadcasts each connection the view its seat
may see (:meth:`Hand.observation` is the one place hidden cards are redacted). Callers hold
:attr:`Table.lock` around every change and every read of the match, so two changes never
interleave and nobody sees a change before it is committed; while one table waits on the
database, the other tables go on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from datetime import UTC
from typing import Any, Literal

from ..actions import Action
from ..bots import Bot, BotLevel, make_bot
from ..errors import IllegalAction, Reason
from ..match import Match
from ..ruleset import RuleSet
from ..store import StoredSeat, StoredTable
from ..store.accounts import Account
from ..store.async_store import AsyncStore, StoreFenced, StoreUnavailable
from ..wire.actions import action_record
from ..wire.messages import ErrorCode, ErrorMessage
from ..wire.observation import ObservationView
from ..wire.settings import TableSettings
from ..wire.table import HandSummary, TableInfo
from ..wire.tricks import TrickViews
from .config import ServerSettings
from .connections import Connection, Views
from .seats import Seat, TableError, bound_seat, claimed_seat
from .security import new_seat_token, new_seed, token_hash
from .table_log import EventLog
from .views import stopper_at, table_info

log = logging.getLogger(__name__)

Status = Literal["waiting", "playing", "finished"]

Driver = Callable[["Table"], Coroutine[Any, Any, None]]
"""The task that moves a playing table on (:func:`.timers.drive`), given by the lobby."""


_REFUSED: dict[str, tuple[ErrorCode, str]] = {
    "waiting": ("not_started", "the match has not started"),
    "playing": ("already_started", "the match has already started"),
    "finished": ("match_over", "the match is over"),
}


class Table(EventLog):
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
        self.deadline: float | None = None
        """Unix time at which the seat to act times out (between hands: at which the players
        who have not pressed 继续 are made ready), or None."""
        self.ready: set[int] = set()
        """Between hands: the seats whose players pressed 继续 (ready)."""
        self.connections: set[Connection] = set()
        self.views = Views()
        """The views sent to the connections, numbered (see :class:`Views`)."""
        self.quiet_since = time.monotonic()
        """When the last connection closed (the lobby stops listing a table left alone)."""
        self.active = self.created
        """Unix time of the last change (or connection)."""
        self.changed = asyncio.Event()
        """Set on every change; the table's driver waits on it."""
        self.driver: asyncio.Task[None] | None = None
        self.closed = False
        """Set by :meth:`close`: the table is no longer served here."""
        self._drive = drive
        self._seed = seed
        self._turn: tuple[int, int | None] | None = None
        self._history: list[HandSummary] = []
        self._start_log()
        self._tricks = TrickViews(lambda index: stopper_at(self.match, index))
        self.public = self.info()
        """The table's information as last published (what REST serves)."""

    # -- construction -------------------------------------------------------------------------

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
        table.public = table.info()
        return table

    # -- seats --------------------------------------------------------------------------------

    async def join(self, connection: Connection, number: int, name: str) -> str:
        """Seat a player in an empty seat before the start; returns their seat token (the
        caller publishes the change once it has answered the connection)."""
        token = await self.seat_player(number, name, connection.account)
        self._attach(connection, self.seats[number])
        return token

    async def seat_player(self, number: int, name: str, account: Account | None = None) -> str:
        """Seat a player not connected yet (quick play: they connect with the token returned).
        A signed-in player's seat is bound to their account and shows its username."""
        self._require("waiting")
        seat = self.seats[number]
        if seat.kind is not None:
            raise TableError("seat_taken", f"seat {number} is taken")
        if account is not None:
            held = bound_seat(self.seats, account.id)
            if held is not None:
                raise TableError("seat_taken", f"your account holds seat {held.number} here "
                                 "already: reclaim it")
            name = account.username
        token = new_seat_token()
        await self._save_seat(
            seat, "human", name, None, token_hash(token), None if account is None else account.id
        )
        return token

    async def reclaim(self, connection: Connection, token: str | None) -> tuple[Seat, str]:
        """Give the seat whose token this is (None: bound to the connection's account) back to
        its player (after a drop, a restart, on another device); the seat and its token (a new
        one after a reclaim by account). The caller publishes the change once it has answered
        the connection."""
        seat = claimed_seat(self.seats, token, connection.account)
        if token is None:
            token = new_seat_token()
            await self._save_seat(
                seat, "human", seat.name or "", None, token_hash(token), seat.account_id
            )
        if self.match is not None and seat.number in self.match.away and self.status == "playing":
            await self._set_away(seat.number, False)
        old = seat.connection
        if old is not None and old is not connection:
            old.send(ErrorMessage(
                code="replaced", message="this seat was reclaimed by another connection"
            ).model_dump_json())
            old.role, old.seat = "new", None
            old.close(4000)
        self._attach(connection, seat)
        seat.auto, seat.timeouts = False, 0
        return seat, token

    async def _save_seat(
        self, seat: Seat, kind: Literal["human", "bot"], name: str, level: str | None,
        hashed: str | None, account_id: int | None = None,
    ) -> None:
        stored = StoredSeat(seat.number, kind, name, level, hashed, account_id)
        await self._store(self.store.save_seat(self.code, stored))
        seat.hold(kind, name, level, hashed, account_id)

    async def _store(self, write: Coroutine[Any, Any, None]) -> None:
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

    def _attach(self, connection: Connection, seat: Seat) -> None:
        connection.role, connection.seat = "player", seat.number
        seat.connection = connection
        self.connections.add(connection)
        if seat.drop_timer is not None:
            seat.drop_timer.cancel()
            seat.drop_timer = None

    def watch(self, connection: Connection) -> None:
        """Add a spectator."""
        connection.role, connection.seat = "spectator", None
        self.connections.add(connection)

    async def fill_bots(self, level: BotLevel | None) -> list[int]:
        """Seat a computer player of ``level`` (default: the table's) in every empty seat."""
        self._require("waiting")
        level = level or self.settings.bot_level
        empty = [seat for seat in self.seats if seat.kind is None]
        try:
            bots = [make_bot(level, seed=secrets.randbits(32)) for _ in empty]
        except ValueError as error:  # a level whose bot is not available
            raise TableError("invalid_message", str(error)) from None
        for seat, bot in zip(empty, bots, strict=True):
            await self._save_seat(seat, "bot", f"{level} bot", level, None)
            seat.bot = bot
        self.publish()
        return [seat.number for seat in empty]

    async def leave(self, connection: Connection) -> None:
        """The connection's player leaves: the seat is freed before the start; during the
        match the computer plays it (逃跑) until the player reclaims it."""
        number = connection.seat
        assert number is not None
        seat = self.seats[number]
        if self.status == "waiting":
            await self._store(self.store.free_seat(self.code, number))
            seat.kind = seat.name = seat.token_hash = seat.account_id = None
        elif self.status == "playing":
            await self._set_away(number, True)
        connection.role, connection.seat = "spectator", None
        seat.connection = None
        self.publish()

    def disconnect(self, connection: Connection) -> None:
        """A connection closed; a player who does not come back in time has left (逃跑)."""
        self.connections.discard(connection)
        if not self.connections:
            self.quiet_since = time.monotonic()
        number = connection.seat if connection.role == "player" else None
        connection.role, connection.seat = "new", None
        if number is None:
            return
        seat = self.seats[number]
        if seat.connection is connection:
            seat.connection = None
            self.start_drop_timer(seat)
            self.publish()

    def start_drop_timer(self, seat: Seat) -> None:
        """Give an absent player ``drop_grace`` seconds to come back before they have left."""
        if self.status != "playing" or seat.drop_timer is not None or self.closed:
            return
        loop = asyncio.get_running_loop()
        seat.drop_timer = loop.call_later(
            self.server.drop_grace, lambda: loop.create_task(self._dropped(seat))
        )

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

    async def _set_away(self, number: int, away: bool) -> None:
        await self._check_store()
        match = self.match
        assert match is not None
        match.set_away(number, away)
        await self._log("away", {"seat": number, "away": away})

    # -- the match ----------------------------------------------------------------------------

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
        await self._log("start", {})
        for seat in self.seats:
            if seat.kind == "human" and seat.connection is None:
                self.start_drop_timer(seat)
        self.start_driver()
        self.publish()

    def start_driver(self) -> None:
        """Run the table's driver (computer players, timers, next deals) while it plays."""
        if self.status == "playing" and self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(self._drive(self))

    @property
    def attended(self) -> bool:
        """True while at least one player is connected: an empty table waits for them."""
        return any(seat.kind == "human" and seat.connection for seat in self.seats)

    def computer_plays(self, number: int) -> bool:
        """True when the computer plays ``number`` now: a computer player, 托管, or away."""
        seat = self.seats[number]
        match = self.match
        return (
            seat.kind == "bot" or seat.auto or (match is not None and number in match.away)
        )

    async def act(self, number: int, action: Action, by_computer: bool = False) -> None:
        """Apply ``seat``'s action; a player acting again ends their 托管 (until the next
        timeout). Raises :class:`IllegalAction` or :class:`TableError` with nothing changed."""
        self._require("playing")
        await self._check_store()
        record = action_record(number, action).model_dump(mode="json")
        landed = self._landed.pop(number, None)
        match = self.match
        assert match is not None
        hand = match.hand
        try:
            if hand.phase == "done":
                raise IllegalAction(Reason("hand_over"))
            hand.apply(number, action)
        except IllegalAction:
            if landed == record:
                return  # a retry of the action stored though its player was told it failed
            raise
        finished = self._settle()
        await self._log("action", record, finished)
        if not by_computer:
            self.seats[number].auto, self.seats[number].timeouts = False, 0
        self.publish()

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

    def present(self) -> list[int]:
        """The seats whose players are connected (and have not left)."""
        away = self.match.away if self.match is not None else frozenset()
        return [seat.number for seat in self.seats
                if seat.kind == "human" and seat.connection and seat.number not in away]

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
        await self._log("next", {})
        self.ready.clear()
        self.publish()

    def bot_for(self, number: int) -> Bot:
        """The computer player of a seat: its own, or the 托管 one."""
        seat = self.seats[number]
        if seat.bot is None:
            level = seat.bot_level if seat.kind == "bot" else self.server.auto_bot
            seat.bot = make_bot(level or self.server.auto_bot, seed=secrets.randbits(32))
        return seat.bot

    def _require(self, status: Status) -> None:
        if self.status != status:
            code, message = _REFUSED[self.status]
            raise TableError(code, message)

    # -- views --------------------------------------------------------------------------------

    def publish(self) -> None:
        """After any change: the seat to act's timer, a broadcast, and a nudge to the driver."""
        self._refresh_deadline()
        self.active = time.time()
        self.broadcast()
        self.changed.set()

    def _refresh_deadline(self) -> None:
        match = self.match
        seat = match.hand.to_act if match is not None and self.status == "playing" else None
        if self.between_hands:
            # One player may take all the time they want; several wait for each other so long.
            timer = self.settings.ready_seconds if len(self.present()) > 1 else None
        elif seat is None or self.computer_plays(seat):
            timer = None
        else:
            assert match is not None
            timer = self.settings.turn_seconds(match.hand.phase)
        if timer is None:
            self.deadline, self._turn = None, None
            return
        turn = (self.version, seat)
        if turn != self._turn:
            self._turn = turn
            self.deadline = time.time() + timer

    def broadcast(self) -> None:
        """Send every connection its view (the table's information is built once for all)."""
        info = self.public = self.info()
        shared = info.model_dump(mode="json")
        self.views.broadcast(self.connections, lambda seat: self.state(seat, shared))

    def send_state(self, connection: Connection) -> None:
        """Send one connection its whole view (after it joined, or asked with ``sync``)."""
        self.views.send(connection, self.state(connection.view_seat))

    def state(self, seat: int | None, info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message (:class:`~baofen.wire.messages.State`) for ``seat``
        (``None``: a spectator) as JSON data, built directly; ``info`` is the table's public
        information as JSON data when the caller has it already."""
        observation = last = None
        if self.match is not None:
            seen = self.match.hand.observation(seat)
            observation = ObservationView.data(seen, self._tricks, self.settings.card_counter)
            if seen.actions:
                last = action_record(*seen.actions[-1]).model_dump(mode="json")
        return {
            "type": "state", "you": seat,
            "table": self.info().model_dump(mode="json") if info is None else info,
            "observation": observation, "last": last,
        }

    def info(self) -> TableInfo:
        """Public information of the table."""
        return table_info(self, self._history)

    def close(self) -> None:
        """Stop the driver and timers (server shutdown); the stored state stays."""
        self.closed = True
        if self.driver is not None:
            self.driver.cancel()
            self.driver = None
        for seat in self.seats:
            if seat.drop_timer is not None:
                seat.drop_timer.cancel()
                seat.drop_timer = None
        for connection in list(self.connections):
            connection.close(1001)

