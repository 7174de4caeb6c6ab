"""A table's seats, who may take one back, and the refusal a table answers with
(:class:`TableError`)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Sequence
from typing import Literal

from ...bots import Bot
from ...store import StoredSeat
from ...store.accounts import Account, SeatResult
from ...wire.messages import ErrorCode
from ..security.tokens import token_matches
from ..transport.connections import Connection


class TableError(Exception):
    """A refused request, with the protocol's error code; nothing was changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


class Seat:
    """One seat: who holds it, whether the computer plays it now, and its live connection."""

    __slots__ = ("account_id", "auto", "bot", "bot_level", "connection", "drop_timer", "kind",
                 "name", "number", "seated", "timeout_phase", "timeouts", "token_hash")

    def __init__(self, number: int) -> None:
        self.number = number
        self.kind: Literal["human", "bot"] | None = None
        self.name: str | None = None
        self.bot_level: str | None = None
        self.token_hash: str | None = None
        self.account_id: int | None = None
        """The account of the signed-in player who took the seat (None: a guest)."""
        self.auto = False
        """托管 switched on (by the player, or by a second turn timeout in a row)."""
        self.timeouts = 0
        """Turn timeouts in a row in one phase: the first has the computer make one move, the
        second 托管."""
        self.timeout_phase: str | None = None
        """The phase of the last timeout."""
        self.bot: Bot | None = None
        self.connection: Connection | None = None
        self.drop_timer: asyncio.TimerHandle | None = None
        self.seated: int | None = None
        """When the player took the seat, as a rank (the earlier the smaller): the host is the
        player seated longest. None: not known (a table restored after a restart)."""

    def time_out(self, phase: str) -> None:
        """The player let their timer run out in ``phase``: a second time in a row in the same
        phase puts the seat in 托管. Each phase counts its own, so that a timeout of the
        bury (扣底) is not the first of two in the play."""
        self.timeouts = self.timeouts + 1 if phase == self.timeout_phase else 1
        self.timeout_phase = phase
        if self.timeouts >= 2:
            self.auto = True

    def hold(
        self, kind: Literal["human", "bot"], name: str | None, level: str | None,
        hashed: str | None, account_id: int | None,
    ) -> None:
        """Give the seat to its holder (again, after a reclaim)."""
        if self.kind is None:
            self.seated = next(_SEATINGS)
        self.kind, self.name, self.bot_level, self.token_hash = kind, name, level, hashed
        self.account_id = account_id

    def stored(self) -> StoredSeat:
        """The seat as the store keeps it."""
        assert self.kind is not None
        return StoredSeat(
            self.number, self.kind, self.name, self.bot_level, self.token_hash, self.account_id
        )

    def result(self) -> SeatResult:
        """Who holds the seat, for a finished hand's results."""
        assert self.kind is not None
        return SeatResult(self.number, self.kind, self.account_id, self.bot_level)


_SEATINGS = itertools.count()
"""The order in which seats are taken."""


def host_seat(seats: Iterable[Seat]) -> int | None:
    """The host's seat: the connected player seated longest (the creator, who sits first; when
    they leave or drop, the next), or None when no player is connected. Seats whose order is
    not known (after a restart) come after the others, by number."""
    present = [seat for seat in seats if seat.kind == "human" and seat.connection is not None]
    first = min(present, key=lambda seat: (seat.seated is None, seat.seated or 0, seat.number),
                default=None)
    return None if first is None else first.number


def check_host(seats: Sequence[Seat], number: int, what: str) -> None:
    """Refuse ``what`` (starting, filling seats) to anyone but the host."""
    host = host_seat(seats)
    if host != number:
        who = "" if host is None else f" ({seats[host].name}, seat {host})"
        raise TableError("not_host", f"only the table's host{who} may {what}")


def bound_seat(seats: Iterable[Seat], account_id: int) -> Seat | None:
    """The seat bound to the account, if any (an account holds one seat of a table at most)."""
    return next((seat for seat in seats
                 if seat.kind == "human" and seat.account_id == account_id), None)


def claimed_seat(seats: Iterable[Seat], token: str | None, account: Account | None) -> Seat:
    """The seat a ``reclaim`` takes back: the one of ``token``, or without a token the one
    bound to ``account``. A seat bound to an account is refused to another account."""
    if token is None:
        if account is None:
            raise TableError("not_signed_in", "sign in to take your seat back without its token")
        seat = bound_seat(seats, account.id)
        if seat is None:
            raise TableError("bad_token", "no seat of this table belongs to your account")
        return seat
    for seat in seats:
        if seat.kind == "human" and token_matches(token, seat.token_hash):
            break
    else:
        raise TableError("bad_token", "no seat of this table has that token")
    if seat.account_id is not None and account is not None and account.id != seat.account_id:
        raise TableError("wrong_account", "this seat belongs to another account")
    return seat
