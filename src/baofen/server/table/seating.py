"""A table's seats and who sits in them: players take seats (join, or a quick-play seat taken
for them), give them back and take them back (reclaim, by token or by account); computer
players fill the empty ones; connections come and go, as players or spectators.

:class:`Seating` is the part of a :class:`~.table.Table` that changes its seats. It stores each
change of a seat's holder (:meth:`.log.TableLog.write`) before it makes it; whatever changes the
match (a player away, 逃跑) is the table's to log, and the table publishes every change.
"""

from __future__ import annotations

import secrets
import time
from typing import Literal

from ...bots import Bot, BotLevel, make_bot
from ...store import StoredSeat
from ...store.accounts import Account
from ...wire.messages import ErrorMessage
from ..config import ServerConfig
from ..security.tokens import new_seat_token, token_hash
from ..transport.connections import Connection
from .log import TableLog
from .seats import Seat, TableError, bound_seat, claimed_seat


class Seating:
    """The seats of a table and its connections (players and spectators)."""

    def __init__(self, seats: list[Seat], log: TableLog, config: ServerConfig) -> None:
        self.seats = seats
        self.log = log
        self.config = config
        self.connections: set[Connection] = set()
        self.quiet_since = time.monotonic()
        """When the last connection closed (the lobby stops listing a table left alone)."""
        self.tournament = False
        """A tournament's table while its round runs: it plays on with nobody connected (the
        round keeps its time) and takes no spectator (nothing crosses between the tables)."""

    # -- taking and giving back seats ----------------------------------------------------------

    async def check_rated(self, account: Account | None) -> None:
        """Refuse a seat at a rated table to an account that holds one at another: an account
        plays one rated match at a time."""
        log = self.log
        if log.settings.rated and account is not None:
            elsewhere = await log.store.rated_table_of(account.id, log.code)
            if elsewhere is not None:
                raise TableError("rated_elsewhere", f"your account holds a seat at rated table "
                                 f"{elsewhere}: finish that match first")

    async def seat_player(self, number: int, name: str, account: Account | None = None,
                          hashed: str | None = None) -> str:
        """Seat a player in an empty seat before the start; returns their seat token (none
        made where the player holds one already, ``hashed``: a tournament's guest). A
        signed-in player's seat is bound to their account and shows its username."""
        self.log.require("waiting")
        seat = self.seats[number]
        if seat.kind is not None:
            raise TableError("seat_taken", f"seat {number} is taken")
        if account is not None:
            held = bound_seat(self.seats, account.id)
            if held is not None:
                raise TableError("seat_taken", f"your account holds seat {held.number} here "
                                 "already: reclaim it")
            name = account.username
        token = "" if hashed else new_seat_token()
        await self._save_seat(
            seat, "human", name, None, hashed or token_hash(token),
            None if account is None else account.id,
        )
        return token

    async def claim(self, account: Account | None, token: str | None) -> tuple[Seat, str]:
        """The seat whose token this is (None: bound to ``account``) and its token (a new one,
        stored, after a claim by account)."""
        seat = claimed_seat(self.seats, token, account)
        if token is None:
            token = new_seat_token()
            await self._save_seat(
                seat, "human", seat.name or "", None, token_hash(token), seat.account_id
            )
        return seat, token

    def take_over(self, connection: Connection, seat: Seat) -> None:
        """Give a claimed seat to ``connection``; a connection that held it is told it was
        replaced and closed. The player acting again ends the seat's 托管."""
        old = seat.connection
        if old is not None and old is not connection:
            old.send(ErrorMessage(
                code="replaced", message="this seat was reclaimed by another connection"
            ).model_dump_json())
            old.role, old.seat = "new", None
            old.close(4000)
        self.attach(connection, seat)
        seat.auto, seat.timeouts = False, 0

    async def free(self, number: int) -> None:
        """Free a seat before the start (its player left)."""
        log = self.log
        await log.write(log.store.free_seat(log.code, number))
        seat = self.seats[number]
        seat.kind = seat.name = seat.token_hash = seat.account_id = None

    def restore(self, stored: list[StoredSeat]) -> None:
        """Give the seats back to their holders as the store keeps them (a table restored)."""
        for saved in stored:
            seat = self.seats[saved.seat]
            seat.kind = "human" if saved.kind == "human" else "bot"
            seat.name, seat.bot_level = saved.name, saved.bot_level
            seat.token_hash, seat.account_id = saved.token_hash, saved.account_id

    async def _save_seat(
        self, seat: Seat, kind: Literal["human", "bot"], name: str, level: str | None,
        hashed: str | None, account_id: int | None = None,
    ) -> None:
        stored = StoredSeat(seat.number, kind, name, level, hashed, account_id)
        await self.log.write(self.log.store.save_seat(self.log.code, stored))
        seat.hold(kind, name, level, hashed, account_id)

    async def fill_bots(self, level: BotLevel | None,
                        seeds: dict[int, int] | None = None) -> list[int]:
        """Seat a computer player of ``level`` (default: the table's) in every empty seat, with
        the seed ``seeds`` gives its seat (default: a fresh one)."""
        self.log.require("waiting")
        level = level or self.log.settings.bot_level
        empty = [seat for seat in self.seats if seat.kind is None]
        seeds = seeds or {}
        try:
            bots = [make_bot(level, seed=seeds.get(seat.number, secrets.randbits(32)))
                    for seat in empty]
        except ValueError as error:  # a level whose bot is not available
            raise TableError("invalid_message", str(error)) from None
        for seat, bot in zip(empty, bots, strict=True):
            await self._save_seat(seat, "bot", f"{level} bot", level, None)
            seat.bot = bot
        return [seat.number for seat in empty]

    # -- connections ---------------------------------------------------------------------------

    def attach(self, connection: Connection, seat: Seat) -> None:
        """Make ``connection`` the player of ``seat`` (back in time: no longer dropped)."""
        connection.role, connection.seat = "player", seat.number
        seat.connection = connection
        self.connections.add(connection)
        if seat.drop_timer is not None:
            seat.drop_timer.cancel()
            seat.drop_timer = None

    def watch(self, connection: Connection) -> None:
        """Add a spectator."""
        if self.tournament:
            raise TableError("no_spectators", "a tournament's table is watched once its round "
                             "is over")
        connection.role, connection.seat = "spectator", None
        self.connections.add(connection)

    def stand_up(self, connection: Connection) -> None:
        """The connection's player gave the seat up: it watches from now on."""
        number = connection.seat
        assert number is not None
        connection.role, connection.seat = "spectator", None
        self.seats[number].connection = None

    def disconnect(self, connection: Connection) -> Seat | None:
        """A connection closed: the seat whose player it was, now without a connection (None:
        a spectator's, or one replaced already)."""
        self.connections.discard(connection)
        if not self.connections:
            self.quiet_since = time.monotonic()
        number = connection.seat if connection.role == "player" else None
        connection.role, connection.seat = "new", None
        if number is None:
            return None
        seat = self.seats[number]
        if seat.connection is not connection:
            return None
        seat.connection = None
        return seat

    # -- who plays a seat now ------------------------------------------------------------------

    @property
    def attended(self) -> bool:
        """True while at least one player is connected: an empty table waits for them."""
        return self.tournament or any(
            seat.kind == "human" and seat.connection for seat in self.seats)

    def present(self) -> list[int]:
        """The seats whose players are connected (and have not left)."""
        match = self.log.match
        away = match.away if match is not None else frozenset()
        return [seat.number for seat in self.seats
                if seat.kind == "human" and seat.connection and seat.number not in away]

    def computer_plays(self, number: int) -> bool:
        """True when the computer plays ``number`` now: a computer player, 托管, or away."""
        seat = self.seats[number]
        match = self.log.match
        return (
            seat.kind == "bot" or seat.auto or (match is not None and number in match.away)
        )

    def bot_for(self, number: int) -> Bot:
        """The computer player of a seat: its own, or the 托管 one."""
        seat = self.seats[number]
        if seat.bot is None:
            level = seat.bot_level if seat.kind == "bot" else self.config.auto_bot
            seat.bot = make_bot(level or self.config.auto_bot, seed=secrets.randbits(32))
        return seat.bot
