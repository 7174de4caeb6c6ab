"""A table's seats over the match: players take them (join, or a quick-play seat taken for
them), give them back (leave) and take them back (reclaim, by token or by account); computer
players fill the empty ones; and a player whose connection dropped has ``drop_grace`` seconds to
come back before they have left (逃跑: the computer plays their seat, an ``away`` event).

:class:`Seating` is the part of :class:`~baofen.server.tables.Table` that changes its seats. It
stores each change through the table's log (:class:`.table_log.EventLog`) before it makes it;
the caller holds the table's lock and publishes the change (:meth:`TableViews.publish`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Literal

from ..bots import Bot, BotLevel, make_bot
from ..store import StoredSeat
from ..store.accounts import Account
from ..wire.events import Away, AwayEvent
from ..wire.messages import ErrorMessage
from .config import ServerSettings
from .connections import Connection
from .seats import Seat, TableError, bound_seat, claimed_seat
from .security import new_seat_token, token_hash
from .table_log import EventLog, Status


class Seating(EventLog):
    """The seats of a :class:`~baofen.server.tables.Table` (a part of it, not used alone)."""

    server: ServerSettings
    connections: set[Connection]
    quiet_since: float

    def _require(self, status: Status) -> None:
        """Refuse a request unless the table is ``status`` (the table's match decides)."""
        raise NotImplementedError

    # -- taking and giving back seats ----------------------------------------------------------

    async def join(self, connection: Connection, number: int, name: str) -> str:
        """Seat a player in an empty seat before the start; returns their seat token (the
        caller publishes the change once it has answered the connection). An account plays
        one rated match at a time."""
        account = connection.account
        if self.settings.rated and account is not None:
            elsewhere = await self.store.rated_table_of(account.id, self.code)
            if elsewhere is not None:
                raise TableError("rated_elsewhere", f"your account holds a seat at rated table "
                                 f"{elsewhere}: finish that match first")
        token = await self.seat_player(number, name, account)
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

    # -- dropped connections -------------------------------------------------------------------

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

    def _stop_drop_timers(self) -> None:
        for seat in self.seats:
            if seat.drop_timer is not None:
                seat.drop_timer.cancel()
                seat.drop_timer = None

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
        await self._log(AwayEvent(payload=Away(seat=number, away=away)))

    # -- who plays a seat now ------------------------------------------------------------------

    @property
    def attended(self) -> bool:
        """True while at least one player is connected: an empty table waits for them."""
        return any(seat.kind == "human" and seat.connection for seat in self.seats)

    def present(self) -> list[int]:
        """The seats whose players are connected (and have not left)."""
        away = self.match.away if self.match is not None else frozenset()
        return [seat.number for seat in self.seats
                if seat.kind == "human" and seat.connection and seat.number not in away]

    def computer_plays(self, number: int) -> bool:
        """True when the computer plays ``number`` now: a computer player, 托管, or away."""
        seat = self.seats[number]
        match = self.match
        return (
            seat.kind == "bot" or seat.auto or (match is not None and number in match.away)
        )

    def bot_for(self, number: int) -> Bot:
        """The computer player of a seat: its own, or the 托管 one."""
        seat = self.seats[number]
        if seat.bot is None:
            level = seat.bot_level if seat.kind == "bot" else self.server.auto_bot
            seat.bot = make_bot(level or self.server.auto_bot, seed=secrets.randbits(32))
        return seat.bot
