"""Which tables this node owns: their leases (:mod:`.lease`) and the fencing numbers it claimed
in the database for them.

The fencing numbers are the store's (:attr:`~baofen.store.async_store.AsyncStore.fences`,
handed to it when it is built): a write to a table this node does not own, or no longer owns,
is refused. The lobby is handed :meth:`Ownership.adopt`, which makes this node the owner of a
table it creates before anything else is written to it.
"""

from __future__ import annotations

import contextlib

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ...store.async_store import AsyncStore, StoreUnavailable
from ..config import ServerConfig
from ..table.seats import TableError
from .bus import connect
from .lease import Leases


class Ownership:
    """This node's tables: code → the fencing number it claimed (shared with ``store``)."""

    def __init__(self, config: ServerConfig, store: AsyncStore) -> None:
        assert config.redis is not None and config.node is not None
        assert store.fences is not None, "the store was built without fencing"
        self.id = config.node
        self.store = store
        self.fences: dict[str, int] = store.fences
        """The fencing number of every table this node owns."""
        self.redis: Redis = connect(config.redis)
        """The node's Redis client (a pool), shared by its leases, bus and registry."""
        self.leases = Leases(self.redis, config.redis_prefix, self.id, config.lease_seconds)

    async def claim(self, code: str) -> int | None:
        """Take the lease and claim its fencing number in the database: the number, 0 when
        there is no such table, None when another node holds the lease."""
        for _ in range(2):
            fence = await self.leases.acquire(code)
            if fence is None:
                return None
            try:
                stored = await self.store.claim(code, fence)
            except StoreUnavailable:
                await self.leases.release(code, fence)
                raise
            if stored is None:
                self.fences[code] = fence
                return fence
            await self.leases.release(code, fence)
            if stored == 0:
                return 0
            # Redis forgot the counter (a restart): go on from the database's number.
            await self.leases.raise_counter(code, stored)
        return None

    async def adopt(self, code: str) -> None:
        """Own a new table (the lobby's ``adopt``): :class:`TableError` when this node cannot."""
        try:
            fence = await self.claim(code)
        except (RedisError, OSError, StoreUnavailable):
            fence = None
        if not fence:
            raise TableError("unavailable", "the table could not be set up: try again")

    def disown(self, code: str) -> int | None:
        """Stop writing to a table (its fencing number, to release its lease with)."""
        return self.fences.pop(code, None)

    async def release(self, code: str, fence: int) -> None:
        """Let go of a table's lease, when Redis answers."""
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release(code, fence)

    async def release_all(self) -> None:
        """Let go of every lease (leaving the cluster: the tables are stored)."""
        for code, fence in list(self.fences.items()):
            await self.release(code, fence)

    async def close(self) -> None:
        """Close the Redis client."""
        await self.redis.aclose()
