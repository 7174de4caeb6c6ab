"""Deprecated: the 匹配 line is :mod:`baofen.server.quickmatch.line` now (its ``Seating`` is
``SeatAssignment``)."""

import warnings

from .quickmatch.line import (
    MatchQueue,
    MemoryQueue,
    QueueUnavailable,
    SeatAssignment,
    TicketState,
    Waiting,
)

warnings.warn("baofen.server.match_queue is now baofen.server.quickmatch.line",
              DeprecationWarning, stacklevel=2)

Seating = SeatAssignment

__all__ = ["MatchQueue", "MemoryQueue", "QueueUnavailable", "Seating", "TicketState", "Waiting"]
