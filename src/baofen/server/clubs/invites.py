"""Invitations to a club table (入座邀请): a member asks another member of the club to take a
seat at one of its tables. They are short-lived notices, not records: kept in memory (one
server) or in Redis (a cluster, so that any node answers the invited member's page), each for
:data:`LIFETIME` seconds, at most :data:`KEPT` an account (the newest), one a table (a new
invitation to the same table replaces the older one).

What an invitation shows is decided when it is read (:mod:`..routes.club_invites`): one whose
table started or filled, or whose club the invited member left, is not shown."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass
from typing import Protocol

try:
    from redis.exceptions import RedisError

    FAILURES: tuple[type[Exception], ...] = (RedisError, OSError)
except ImportError:  # one server: no Redis (the "cluster" extra)
    FAILURES = (OSError,)
"""What a store of invitations that does not answer raises."""

log = logging.getLogger(__name__)

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


def _live(invites: list[TableInvite], now: float) -> list[TableInvite]:
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
                                if (kept := _live(listed, now))}
        listed = [i for i in self._by_account.get(account_id, []) if i.table != invite.table]
        self._by_account[account_id] = _live([invite, *listed], now)

    async def mine(self, account_id: int) -> list[TableInvite]:
        return _live(self._by_account.get(account_id, []), time.time())

    async def drop(self, account_id: int, table: str) -> bool:
        listed = self._by_account.get(account_id, [])
        kept = [i for i in listed if i.table != table]
        self._by_account[account_id] = kept
        return len(kept) != len(listed)

    async def close(self) -> None:
        return None


class RedisInvites:
    """A cluster's invitations, in Redis: a hash per account (field: the table's code), which
    expires with its newest invitation. Were Redis not answering, an invitation is refused
    (``unavailable``) rather than kept where other nodes would not see it."""

    def __init__(self, url: str, prefix: str) -> None:
        from redis.asyncio import Redis

        self.redis = Redis.from_url(url, socket_timeout=2.0)
        self.prefix = f"{prefix}table-invites:"

    async def put(self, account_id: int, invite: TableInvite) -> None:
        key = f"{self.prefix}{account_id}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, invite.table, json.dumps(asdict(invite)))
            pipe.pexpire(key, int(LIFETIME * 1000))
            await pipe.execute()
        listed = await self.mine(account_id)  # trim the expired and the oldest past KEPT
        stored = await self.redis.hkeys(key)
        keep = {i.table for i in listed}
        stale = [field for field in stored if (field.decode() if isinstance(field, bytes)
                                                else field) not in keep]
        if stale:
            await self.redis.hdel(key, *stale)

    async def mine(self, account_id: int) -> list[TableInvite]:
        stored = await self.redis.hgetall(f"{self.prefix}{account_id}")
        invites = []
        for value in stored.values():
            try:
                invites.append(TableInvite(**json.loads(value)))
            except (TypeError, ValueError):
                log.warning("table invitations: an unreadable entry of account %s", account_id)
        return _live(invites, time.time())

    async def drop(self, account_id: int, table: str) -> bool:
        return bool(await self.redis.hdel(f"{self.prefix}{account_id}", table))

    async def close(self) -> None:
        await self.redis.aclose()
