"""What the store holds of a table: its seats and its log, and the whole table read back."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A taken seat: a player (with the hash of their token) or a computer player."""

    seat: int
    kind: str
    """``"human"`` or ``"bot"``."""
    name: str | None = None
    bot_level: str | None = None
    token_hash: str | None = None
    account_id: int | None = None
    """The account of the signed-in player who took the seat (None: a guest or a computer)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a table's log."""

    seq: int
    """1 for the first event; the table's version after it."""
    kind: str
    """``"start"``, ``"action"``, ``"next"`` (next hand) or ``"away"``."""
    payload: dict[str, Any]
    """JSON data; the server reads and writes each kind's as a typed event
    (:mod:`baofen.wire.events`)."""


@dataclass(slots=True)
class StoredTable:
    """Everything stored about one table."""

    code: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    """``"waiting"``, ``"playing"``, ``"finished"``, or ``"expired"`` (nobody started it)."""
    created: datetime
    seats: list[StoredSeat] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
