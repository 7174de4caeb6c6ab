"""Who gets the 复盘 pool's time: the queue of reviews' decisions, and the bounds on starting a
review.

The pool reviews one decision at a time per worker. Every review asked for waits in the
:class:`ReviewQueue`, and the pool's time is shared among them rather than given to the first
few: each turn a worker takes the next decision of the review that has had the least of the
pool's time so far (each decision costs its worlds × candidates), reviews asked for by a
player of the hand before all others. A review joining the queue starts level with the
least-served review of its kind (not at zero, which would hand it the pool until it caught
up), so from the moment it is asked it advances at an equal share, whoever else is waiting.

:class:`DeepReviews` bounds what one client may ask of the pool over time: a deep review costs
about six standard ones, so each client address starts at most :data:`DEEP_PER_HOUR` an hour.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from itertools import count
from typing import Generic, TypeVar

T = TypeVar("T")

DEEP_PER_HOUR = 4
"""Deep reviews one client address may start in any hour."""

HOUR = 3600.0


class Busy(Exception):
    """No review can start now for this client: try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 10) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class Share(Generic[T]):
    """One review in the queue: its decisions not yet handed to the pool, and the pool time
    it has had."""

    own: bool
    """Asked for by a player of the hand: served before every other review."""
    cost: int
    """The pool time of one of its decisions (worlds × candidates)."""
    waiting: deque[T]
    served: int
    """The cost of its decisions handed to the pool so far (from its start level)."""
    order: int
    """When it joined (ties go to the earlier review)."""


@dataclass
class ReviewQueue(Generic[T]):
    """The decisions of every review waiting for the pool, in fair-share order."""

    _shares: list[Share[T]] = field(default_factory=list)
    _joined: count[int] = field(default_factory=count)

    def add(self, own: bool, cost: int, decisions: list[T]) -> Share[T]:
        """Queue a review's decisions; its share (to :meth:`remove` it by)."""
        level = min((share.served for share in self._shares if share.own == own), default=0)
        share = Share(own, cost, deque(decisions), level, next(self._joined))
        if share.waiting:
            self._shares.append(share)
        return share

    def next(self) -> T | None:
        """The decision to hand to the pool now (None: nothing waits)."""
        if not self._shares:
            return None
        share = min(self._shares, key=lambda s: (not s.own, s.served, s.order))
        share.served += share.cost
        decision = share.waiting.popleft()
        if not share.waiting:
            self._shares.remove(share)
        return decision

    def remove(self, share: Share[T]) -> None:
        """Take a review's waiting decisions out of the queue (nobody asks about it)."""
        if share in self._shares:
            self._shares.remove(share)

    def __len__(self) -> int:
        """Decisions waiting."""
        return sum(len(share.waiting) for share in self._shares)


class DeepReviews:
    """When each client address started its deep reviews of the last hour."""

    def __init__(self) -> None:
        self._started: dict[str, deque[float]] = {}

    def start(self, address: str) -> None:
        """Count a deep review of ``address``; :class:`Busy` (nothing counted) when it has
        started :data:`DEEP_PER_HOUR` in the last hour."""
        now = time.monotonic()
        for known, times in list(self._started.items()):  # forget the hour gone by
            while times and times[0] <= now - HOUR:
                times.popleft()
            if not times:
                del self._started[known]
        times = self._started.setdefault(address, deque())
        if len(times) >= DEEP_PER_HOUR:
            wait = int(times[0] + HOUR - now) + 1
            raise Busy(f"{DEEP_PER_HOUR} deep reviews an hour at most: a quick or standard "
                       f"review is possible now, a deep one in {wait} s", wait)
        times.append(now)
