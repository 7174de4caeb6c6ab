"""Invitations to a club table (入座邀请): a member asks another member of the club to take a
seat at one of its tables. They are short-lived notices, not records: kept in memory (one
server) or in Redis (a cluster, so that any node answers the invited member's page), each for
:data:`LIFETIME` seconds, at most :data:`KEPT` an account (the newest), one a table (a new
invitation to the same table replaces the older one).

What an invitation shows is decided when it is read (:mod:`..routes.club_invites`): one whose
table started or filled, or whose club the invited member left, is not shown."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol


class InvitesUnavailable(Exception):
    """The store of invitations does not answer (a cluster's Redis)."""


LIFETIME = 15 * 60.0
"""Seconds an invitation lasts (a table waiting for players longer is rarely still waiting)."""
KEPT = 20
"""Invitations kept an account at most (the newest)."""


@dataclass(frozen=True)
class TableInvite:
    """An invitation of one member by another to a club table."""

    club: str
    club_name: str
    table: str
    by: str
    """The inviting member's username."""
    created: float
    """Unix time in seconds."""

    @property
    def expires(self) -> float:
        return self.created + LIFETIME


class TableInvites(Protocol):
    """Where the invitations are kept."""

    async def put(self, account_id: int, invite: TableInvite) -> None:
        """Keep ``invite`` for ``account_id`` (replacing one to the same table)."""

    async def mine(self, account_id: int) -> list[TableInvite]:
        """The account's invitations not expired, newest first."""

    async def drop(self, account_id: int, table: str) -> bool:
        """Forget the account's invitation to ``table``; whether there was one."""

    async def close(self) -> None:
        """Stop (the server shuts down)."""


def live(invites: list[TableInvite], now: float) -> list[TableInvite]:
    """Those of ``invites`` not expired at ``now``, newest first, :data:`KEPT` at most."""
    alive = sorted((i for i in invites if i.expires > now), key=lambda i: -i.created)
    return alive[:KEPT]


class MemoryInvites:
    """One server's invitations, in memory."""

    def __init__(self) -> None:
        self._by_account: dict[int, list[TableInvite]] = {}

    async def put(self, account_id: int, invite: TableInvite) -> None:
        now = time.time()
        if len(self._by_account) >= 10_000:  # forget accounts whose invitations all expired
            self._by_account = {a: kept for a, listed in self._by_account.items()
                                if (kept := live(listed, now))}
        listed = [i for i in self._by_account.get(account_id, []) if i.table != invite.table]
        self._by_account[account_id] = live([invite, *listed], now)

    async def mine(self, account_id: int) -> list[TableInvite]:
        return live(self._by_account.get(account_id, []), time.time())

    async def drop(self, account_id: int, table: str) -> bool:
        listed = self._by_account.get(account_id, [])
        kept = [i for i in listed if i.table != table]
        self._by_account[account_id] = kept
        return len(kept) != len(listed)

    async def close(self) -> None:
        return None
