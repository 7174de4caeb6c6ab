"""The waiting line of 匹配 (quick match), behind one small interface with two keepers: this
process's memory (:class:`MemoryQueue`, the default) and Redis
(:class:`~..cluster.match_line.RedisQueue`, when the server has a Redis URL), so that players
waiting on different server processes of a cluster are seated together.

A ticket waits in its variant's line. :meth:`MatchQueue.take` pops a group atomically — four
players at once, or everyone who may sit with the oldest once it has waited ``wait`` seconds —
so that no two processes ever seat the same player. Two tickets of one client address, or of one
browser, never sit at one table (同IP禁止同桌: one client holding several tickets would
otherwise play several seats against the others, seeing their cards), unless they are one
account's (its two tabs share a seat): :func:`table_group`. A ticket whose holder has not
asked for news for ``stale`` seconds (the page was closed) leaves the line, so nobody is seated
for an absent player.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Literal

from ...setting import Variant
from ...store.accounts import Account
from ..security.addresses import network_of

TABLE_SIZE = 4
"""Players at a table."""
STALE_SECONDS = 10.0
"""A waiting ticket nobody asked about for this long is cancelled (the browser asks every
second)."""
STARTING_SECONDS = 30.0
"""A ticket taken into a group but not seated this long after (the process making its table
died) is cancelled, so that its holder is told rather than kept waiting."""
KEEP_SECONDS = 600.0
"""A ticket is forgotten this long after it was last asked about."""

Status = Literal["waiting", "starting", "seated", "cancelled"]
"""A ticket's state in the line; ``starting``: taken into a group whose table is being made."""


@dataclass(frozen=True)
class Waiting:
    """A player in the line."""

    ticket: str
    variant: Variant
    name: str
    account: Account | None = None
    """The signed-in player's account, to bind the seat to; None for a guest."""
    address: str = ""
    """The client's address (behind the trusted proxies; empty: unknown, no constraint)."""
    browser: str = ""
    """The browser's mark (its ``baofen_browser`` cookie; empty: none, no constraint)."""

    @property
    def marks(self) -> list[str]:
        """What tells this ticket's client apart: its network address (compared as
        :func:`~..security.addresses.network_of` says) and its browser."""
        return [f"{kind}:{mark}" for kind, mark in (("address", network_of(self.address)),
                                                    ("browser", self.browser)) if mark]


def table_group(line: list[Waiting]) -> list[Waiting]:
    """The tickets of ``line`` (oldest first) that sit at the oldest's table: in order, at most
    :data:`TABLE_SIZE`, none from an address or a browser already at it but by the same
    account."""
    group: list[Waiting] = []
    holders: dict[str, int | None] = {}
    """The account (None: a guest) holding each address's and browser's seat at the table."""
    for waiting in line:
        if len(group) == TABLE_SIZE:
            break
        account = waiting.account.id if waiting.account is not None else None
        if any(mark in holders and (account is None or holders[mark] != account)
               for mark in waiting.marks):
            continue
        holders.update(dict.fromkeys(waiting.marks, account))
        group.append(waiting)
    return group


@dataclass(frozen=True)
class SeatAssignment:
    """Where a taken ticket was seated."""

    code: str
    seat: int
    token: str | None
    """The seat token, until the ticket's holder has been given it (once)."""


@dataclass(frozen=True)
class TicketState:
    """A ticket as the line keeps it, with the line's news at the time of asking."""

    waiting: Waiting
    status: Status
    waiting_players: int = 0
    """Players in this variant's line now."""
    waited: float = 0.0
    """Seconds the line's oldest player has waited (the countdown runs from it)."""
    assignment: SeatAssignment | None = None


class QueueUnavailable(Exception):
    """The line's keeper (Redis) does not answer; nothing was changed by this call."""


class MatchQueue(ABC):
    """The quick-match line of every variant; each method is atomic."""

    @abstractmethod
    async def put(self, waiting: Waiting) -> None:
        """Add a ticket at the end of its variant's line."""

    @abstractmethod
    async def take(self, variant: Variant, wait: float, stale: float) -> list[Waiting]:
        """Drop the stale tickets, then pop the group to seat now (oldest first; marked
        ``starting``): the oldest's :func:`table_group` when it is four, or once the oldest
        has waited ``wait`` seconds; an empty list when it is not time."""

    @abstractmethod
    async def state(self, ticket: str, claim: bool = True) -> TicketState | None:
        """The ticket and its line's news (None: no such ticket); the holder is seen now. A
        ticket ``starting`` for :data:`STARTING_SECONDS` is cancelled. With ``claim``, a seat
        token is handed out: the line forgets it (so that it is given once, not on every
        poll)."""

    @abstractmethod
    async def cancel(self, ticket: str) -> bool:
        """Take a waiting ticket out of the line (True); False when it was not waiting."""

    @abstractmethod
    async def settle(self, ticket: str, assignment: SeatAssignment | None) -> None:
        """A taken ticket's outcome: seated, or (None) cancelled when no table could be made."""

    @abstractmethod
    async def close(self) -> None:
        """Release what the line holds open (the Redis connection)."""


@dataclass
class _Entry:
    waiting: Waiting
    status: Status
    since: float
    seen: float
    taken: float = 0.0
    assignment: SeatAssignment | None = field(default=None)


class MemoryQueue(MatchQueue):
    """The line in this process's memory (every method runs on the event loop without
    awaiting, so each is atomic)."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._lines: dict[Variant, list[str]] = {}
        """Waiting tickets of each variant, oldest first."""

    async def put(self, waiting: Waiting) -> None:
        """Add a ticket at the end of its variant's line."""
        now = time.monotonic()
        self._forget(now)
        self._entries[waiting.ticket] = _Entry(waiting, "waiting", now, now)
        self._lines.setdefault(waiting.variant, []).append(waiting.ticket)

    async def take(self, variant: Variant, wait: float, stale: float) -> list[Waiting]:
        """Drop the stale tickets, then pop the group to seat now (see :class:`MatchQueue`)."""
        now = time.monotonic()
        line = self._lines.setdefault(variant, [])
        for ticket in [t for t in line if now - self._entries[t].seen >= stale]:
            line.remove(ticket)
            self._entries[ticket].status = "cancelled"
        group = table_group([self._entries[ticket].waiting for ticket in line])
        if len(group) < TABLE_SIZE and not (line and now - self._entries[line[0]].since >= wait):
            return []
        for waiting in group:
            line.remove(waiting.ticket)
            entry = self._entries[waiting.ticket]
            entry.status, entry.taken = "starting", now
        return group

    async def state(self, ticket: str, claim: bool = True) -> TicketState | None:
        """The ticket and its line's news (None: no such ticket); the holder is seen now."""
        entry = self._entries.get(ticket)
        if entry is None:
            return None
        now = entry.seen = time.monotonic()
        if entry.status == "starting" and now - entry.taken > STARTING_SECONDS:
            entry.status = "cancelled"
        line = self._lines.get(entry.waiting.variant, [])
        waited = now - self._entries[line[0]].since if line else 0.0
        assignment = entry.assignment
        if claim and assignment is not None:
            entry.assignment = replace(assignment, token=None)
        return TicketState(entry.waiting, entry.status, len(line), waited, assignment)

    async def cancel(self, ticket: str) -> bool:
        """Take a waiting ticket out of the line (True); False when it was not waiting."""
        entry = self._entries.get(ticket)
        if entry is None or entry.status != "waiting":
            return False
        self._lines[entry.waiting.variant].remove(ticket)
        entry.status = "cancelled"
        return True

    async def settle(self, ticket: str, assignment: SeatAssignment | None) -> None:
        """A taken ticket's outcome: seated, or cancelled."""
        entry = self._entries.get(ticket)
        if entry is not None:
            entry.status, entry.assignment = ("seated" if assignment else "cancelled"), assignment

    async def close(self) -> None:
        """Nothing to release: the line goes with the process."""

    def _forget(self, now: float) -> None:
        """Forget tickets out of the line that nobody asked about for a long time."""
        old = [t for t, e in self._entries.items()
               if e.status != "waiting" and now - e.seen > KEEP_SECONDS]
        for ticket in old:
            del self._entries[ticket]

