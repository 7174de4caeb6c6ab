"""A table's seats, and the refusal a table answers with (:class:`TableError`)."""

from __future__ import annotations

import asyncio
from typing import Literal

from ..bots import Bot
from ..store import StoredSeat
from ..wire.messages import ErrorCode
from .connections import Connection


class TableError(Exception):
    """A refused request, with the protocol's error code; nothing was changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


class Seat:
    """One seat: who holds it, whether the computer plays it now, and its live connection."""

    __slots__ = ("auto", "bot", "bot_level", "connection", "drop_timer", "kind", "name",
                 "number", "timeouts", "token_hash")

    def __init__(self, number: int) -> None:
        self.number = number
        self.kind: Literal["human", "bot"] | None = None
        self.name: str | None = None
        self.bot_level: str | None = None
        self.token_hash: str | None = None
        self.auto = False
        """托管 switched on (by the player, or by a second turn timeout in a row)."""
        self.timeouts = 0
        """Turn timeouts in a row: the first has the computer play one move, the second 托管."""
        self.bot: Bot | None = None
        self.connection: Connection | None = None
        self.drop_timer: asyncio.TimerHandle | None = None

    def stored(self) -> StoredSeat:
        """The seat as the store keeps it."""
        assert self.kind is not None
        return StoredSeat(self.number, self.kind, self.name, self.bot_level, self.token_hash)
