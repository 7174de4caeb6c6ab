"""Where invitations to a club table are kept: in memory (one server) and in Redis (a cluster),
alike — one a table (the newest replaces the older), the newest first, at most KEPT an account,
gone once expired or dismissed."""

from __future__ import annotations

import asyncio
import secrets
import time

import redis

from baofen.server.clubs import invites
from baofen.server.clubs.invites import MemoryInvites, TableInvite, TableInvites
from baofen.server.cluster.table_invites import RedisInvites

from .cluster import SHARED_REDIS


def _invite(table: str, by: str = "Ann", age: float = 0.0) -> TableInvite:
    return TableInvite(club="c", club_name="周六包分", table=table, by=by,
                       created=time.time() - age)


async def _check(store: TableInvites) -> None:
    await store.put(1, _invite("T1", age=2))
    await store.put(1, _invite("T2", age=1))
    await store.put(1, _invite("T1", by="Bob"))  # replaces Ann's to T1
    assert [(i.table, i.by) for i in await store.mine(1)] == [("T1", "Bob"), ("T2", "Ann")]
    assert await store.mine(2) == []
    await store.put(1, _invite("OLD", age=invites.LIFETIME + 1))
    assert [i.table for i in await store.mine(1)] == ["T1", "T2"]
    assert await store.drop(1, "T2") and not await store.drop(1, "T2")
    for n in range(invites.KEPT + 5):
        await store.put(3, _invite(f"N{n}", age=-n * 0.001))
    kept = await store.mine(3)
    assert len(kept) == invites.KEPT and kept[0].table == f"N{invites.KEPT + 4}"
    await store.close()


def test_in_memory() -> None:
    asyncio.run(_check(MemoryInvites()))


def test_in_redis() -> None:
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    asyncio.run(_check(RedisInvites(SHARED_REDIS, prefix)))
    # What a read leaves out is gone from Redis too: no hash grows past KEPT.
    stored = redis.Redis.from_url(SHARED_REDIS)
    assert stored.hlen(f"{prefix}table-invites:3") == invites.KEPT
    assert stored.hkeys(f"{prefix}table-invites:1") == [b"T1"]
