"""A table's clocks and background tasks: the seat to act's deadline, an absent player's grace
(drop timers), the driver that moves the match on (:mod:`.driver`), and the reload of a table
whose write failed while the store did not answer.

:class:`Timers` is the part of a :class:`~.table.Table` that holds them; the table says what to
run and when, and stops them all when it closes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from .seats import Seat


class Timers:
    """The deadline, the driver, the drop timers and the recovery of one table."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        """Unix time at which the seat to act times out (between hands: at which the players
        who have not pressed 继续 are made ready), or None."""
        self.changed = asyncio.Event()
        """Set on every change; the table's driver waits on it."""
        self.driver: asyncio.Task[None] | None = None
        """The task that moves a playing table on (:func:`.driver.drive`)."""
        self._turn: tuple[int, int | None] | None = None
        self._recovery: asyncio.Task[None] | None = None

    def arm(self, turn: tuple[int, int | None], seconds: float | None) -> None:
        """Time ``turn`` (the log's version and the seat to act) out after ``seconds`` (None:
        no timer); a turn already timed keeps its deadline."""
        if seconds is None:
            self.deadline, self._turn = None, None
            return
        if turn != self._turn:
            self._turn = turn
            self.deadline = time.time() + seconds

    def start_driver(self, drive: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``drive()`` unless a driver runs already."""
        if self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(drive())

    def start_drop_timer(self, seat: Seat, grace: float,
                         dropped: Callable[[Seat], Coroutine[Any, Any, None]]) -> None:
        """Run ``dropped(seat)`` once its absent player has had ``grace`` seconds to come back
        (:meth:`.seating.Seating.attach` cancels it)."""
        loop = asyncio.get_running_loop()
        seat.drop_timer = loop.call_later(grace, lambda: loop.create_task(dropped(seat)))

    def recover(self, recovery: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``recovery()`` unless one runs already."""
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.get_running_loop().create_task(recovery())

    def stop(self, seats: list[Seat]) -> None:
        """Stop the driver and the seats' drop timers (the table closes)."""
        if self.driver is not None:
            self.driver.cancel()
            self.driver = None
        for seat in seats:
            if seat.drop_timer is not None:
                seat.drop_timer.cancel()
                seat.drop_timer = None
