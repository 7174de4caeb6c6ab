"""Limits on failed sign-ins (and wrong passwords), per username and per client address.

At most ``failures`` failures per ``window`` seconds for each key (a username's canonical form,
a client address); while a key is over, sign-ins are refused outright (429). One server keeps
the counts in memory; the nodes of a cluster share them in Redis, so that more nodes do not
give an attacker more tries (were Redis not answering, each node goes on counting on its own).
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections import deque
from typing import Protocol

log = logging.getLogger(__name__)


class LoginLimits(Protocol):
    """Failed sign-ins by key."""

    async def retry_after(self, keys: list[str]) -> int | None:
        """Seconds until every key may try again, or None when none is over its limit."""

    async def failed(self, keys: list[str]) -> None:
        """Count a failed sign-in against each key."""

    async def succeeded(self, key: str) -> None:
        """A right password: the username's failures are forgiven (the address's are not)."""

    async def close(self) -> None:
        """Let go of any connection."""


def _wait(window: float, oldest: list[float], now: float) -> int | None:
    """The wait in whole seconds until the oldest failure of each full key leaves the window."""
    waits = [first + window - now for first in oldest]
    return max(1, round(max(waits) + 0.5)) if waits else None


class MemoryLimits:
    """The counts of one server process."""

    def __init__(self, failures: int, window: float) -> None:
        self.failures = failures
        self.window = window
        self._failed: dict[str, deque[float]] = {}

    async def retry_after(self, keys: list[str]) -> int | None:
        """See :class:`LoginLimits`."""
        now = time.monotonic()
        full = [times[0] for times in (self._recent(key, now) for key in keys)
                if len(times) >= self.failures]
        return _wait(self.window, full, now)

    async def failed(self, keys: list[str]) -> None:
        """See :class:`LoginLimits`."""
        now = time.monotonic()
        if len(self._failed) >= 100_000:
            self._failed = {k: v for k, v in self._failed.items() if self._recent(k, now)}
        for key in keys:
            self._failed.setdefault(key, deque()).append(now)

    async def succeeded(self, key: str) -> None:
        """See :class:`LoginLimits`."""
        self._failed.pop(key, None)

    async def close(self) -> None:
        """Nothing to let go of."""

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failed.get(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times


class RedisLimits:
    """The counts of a cluster, in Redis (a sorted set of failure times per key, on Redis's
    clock so that the nodes' clocks need not agree)."""

    def __init__(self, url: str, prefix: str, failures: int, window: float) -> None:
        from redis import asyncio as aioredis  # the cluster extra

        self.redis = aioredis.Redis.from_url(url, socket_timeout=2.0)
        self.prefix = f"{prefix}login:"
        self.failures = failures
        self.window = window
        self.local = MemoryLimits(failures, window)

    async def _now(self) -> float:
        seconds, micros = await self.redis.time()
        return float(seconds) + micros / 1e6

    async def retry_after(self, keys: list[str]) -> int | None:
        """See :class:`LoginLimits`."""
        from redis.exceptions import RedisError

        try:
            now = await self._now()
            full = []
            for key in keys:
                name = self.prefix + key
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.zremrangebyscore(name, 0, now - self.window)
                    pipe.zrange(name, 0, 0, withscores=True)
                    pipe.zcard(name)
                    _, oldest, count = await pipe.execute()
                if count >= self.failures:
                    full.append(float(oldest[0][1]))
            return _wait(self.window, full, now)
        except (RedisError, OSError) as error:
            log.warning("login limits: Redis is not answering (%s); counting here", error)
            return await self.local.retry_after(keys)

    async def failed(self, keys: list[str]) -> None:
        """See :class:`LoginLimits`."""
        from redis.exceptions import RedisError

        await self.local.failed(keys)
        try:
            now = await self._now()
            async with self.redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    pipe.zadd(self.prefix + key, {f"{now}:{secrets.token_hex(4)}": now})
                    pipe.expire(self.prefix + key, math.ceil(self.window))
                await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("login limits: Redis is not answering (%s); counting here", error)

    async def succeeded(self, key: str) -> None:
        """See :class:`LoginLimits`."""
        from redis.exceptions import RedisError

        await self.local.succeeded(key)
        try:
            await self.redis.delete(self.prefix + key)
        except (RedisError, OSError) as error:
            log.warning("login limits: Redis is not answering (%s)", error)

    async def close(self) -> None:
        """Close the Redis connections."""
        await self.redis.aclose()


def login_limits(failures: int, window: float, redis: str | None,
                 prefix: str = "baofen:") -> LoginLimits:
    """The limits in Redis when the server is a node of a cluster, else in memory."""
    if redis is None:
        return MemoryLimits(failures, window)
    return RedisLimits(redis, prefix, failures, window)
