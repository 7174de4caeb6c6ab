"""A cluster's invitations to club tables (:mod:`..clubs.invites`), in Redis, so that any node
answers the invited member's page."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import asdict

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..clubs.invites import LIFETIME, InvitesUnavailable, TableInvite, live

log = logging.getLogger(__name__)


@asynccontextmanager
async def _answering() -> AsyncIterator[None]:
    """Raise :class:`InvitesUnavailable` when Redis does not answer."""
    try:
        yield
    except (RedisError, OSError) as error:
        raise InvitesUnavailable(f"Redis: {error}") from None


def _text(field: bytes | str) -> str:
    return field.decode() if isinstance(field, bytes) else field


def _live(account_id: int, stored: Mapping[bytes | str, bytes | str]) -> list[TableInvite]:
    """The invitations of an account's hash not expired, newest first (an unreadable entry is
    passed over)."""
    invites = []
    for value in stored.values():
        try:
            invites.append(TableInvite(**json.loads(value)))
        except (TypeError, ValueError):
            log.warning("table invitations: an unreadable entry of account %s", account_id)
    return live(invites, time.time())


class RedisInvites:
    """A cluster's invitations, in Redis: a hash per account (field: the table's code), which
    expires with its newest invitation. Were Redis not answering, an invitation is refused
    (``unavailable``) rather than kept where other nodes would not see it."""

    def __init__(self, url: str, prefix: str) -> None:
        self.redis = Redis.from_url(url, socket_timeout=2.0)
        self.prefix = f"{prefix}table-invites:"

    async def put(self, account_id: int, invite: TableInvite) -> None:
        key = f"{self.prefix}{account_id}"
        async with _answering():
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hset(key, invite.table, json.dumps(asdict(invite)))
                pipe.pexpire(key, int(LIFETIME * 1000))
                pipe.hgetall(key)
                *_, stored = await pipe.execute()
            # The expired and the oldest past KEPT go.
            keep = {i.table for i in _live(account_id, stored)}
            stale = [field for field in stored if _text(field) not in keep]
            if stale:
                await self.redis.hdel(key, *stale)

    async def mine(self, account_id: int) -> list[TableInvite]:
        async with _answering():
            return _live(account_id, await self.redis.hgetall(f"{self.prefix}{account_id}"))

    async def drop(self, account_id: int, table: str) -> bool:
        async with _answering():
            return bool(await self.redis.hdel(f"{self.prefix}{account_id}", table))

    async def close(self) -> None:
        await self.redis.aclose()
