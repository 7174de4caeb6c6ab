"""Limits on password tries (sign-in, password change, account deletion), per client address and
per username.

A try is *taken* before its password is verified, atomically with the check that it is allowed,
and forgiven once the password proves right (or was never verified): so however many tries
arrive at once, no more are verified than the limits let through. Two limits:

- a client address may take ``failures`` tries per ``window`` seconds; then it waits until its
  oldest try leaves the window;
- a username may take ``failures`` tries per window at once; after them it *backs off*: each
  further try waits 1, 2, 4, … seconds after the name's latest one, at most
  ``window / failures`` seconds (so, from many addresses, about ``failures`` tries a window).
  A name is never locked for the whole window, so wrong passwords sent from elsewhere delay its
  owner by seconds, not minutes.

One server keeps the tries in memory; the nodes of a cluster share them in Redis (one Lua
script checks and takes a try), so that more nodes do not give an attacker more tries (were
Redis not answering, each node goes on counting on its own).
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Attempt:
    """A password try taken against a client address and a username."""

    keys: tuple[str, str]
    """The address's key, then the name's."""
    mark: str
    """Tells this try from the others of its keys (what :meth:`LoginLimits.forgive` removes)."""
    local: bool = False
    """Counted in this process only (Redis did not answer)."""


class LoginLimits(Protocol):
    """Password tries by client address and username."""

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """Take a try for ``address`` and the canonical username ``name``; when the limits
        refuse it, the whole seconds to wait instead (nothing is taken)."""

    async def forgive(self, attempt: Attempt) -> None:
        """The try's password was right (or not verified): it no longer counts."""

    async def close(self) -> None:
        """Let go of any connection."""


def _keys(address: str, name: str) -> tuple[str, str]:
    return "addr:" + address, "user:" + name


def _whole(seconds: float) -> int:
    return max(1, math.ceil(seconds))


class MemoryLimits:
    """The tries of one server process (each method runs on the event loop without awaiting,
    so the check and the take are one step)."""

    def __init__(self, failures: int, window: float) -> None:
        self.failures = failures
        self.window = window
        self._tries: dict[str, deque[tuple[float, str]]] = {}

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """See :class:`LoginLimits`."""
        now = time.monotonic()
        if len(self._tries) >= 100_000:
            self._tries = {k: v for k, v in self._tries.items() if self._recent(k, now)}
        keys = _keys(address, name)
        by_address, by_name = (self._recent(key, now) for key in keys)
        wait = 0.0
        if len(by_address) >= self.failures:
            wait = by_address[0][0] + self.window - now
        if len(by_name) >= self.failures:
            pause = min(self.window / self.failures, 2.0 ** (len(by_name) - self.failures))
            wait = max(wait, by_name[-1][0] + pause - now)
        if wait > 0:
            return _whole(wait)
        attempt = Attempt(keys, secrets.token_hex(8))
        for key in keys:
            self._tries.setdefault(key, deque()).append((now, attempt.mark))
        return attempt

    async def forgive(self, attempt: Attempt) -> None:
        """See :class:`LoginLimits`."""
        for key in attempt.keys:
            tries = self._tries.get(key)
            if tries is not None:
                self._tries[key] = deque(t for t in tries if t[1] != attempt.mark)

    async def close(self) -> None:
        """Nothing to let go of."""

    def _recent(self, key: str, now: float) -> deque[tuple[float, str]]:
        tries = self._tries.get(key, deque())
        while tries and tries[0][0] <= now - self.window:
            tries.popleft()
        return tries


ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window, free, cap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n >= free then
    if i == 1 then
      local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
      wait = math.max(wait, tonumber(oldest[2]) + window - now)
    else
      local latest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
      wait = math.max(wait, tonumber(latest[2]) + math.min(cap, 2 ^ (n - free)) - now)
    end
  end
end
if wait > 0 then return tostring(wait) end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, math.ceil(window * 1000))
end
return '0'
"""
"""KEYS: the address's sorted set of tries, the name's (scored by Redis's clock, so that the
nodes' clocks need not agree); ARGV: window, failures, the name's longest pause, the try's
mark. Returns the seconds to wait, or 0 when the try was taken."""


class RedisLimits:
    """The tries of a cluster, in Redis."""

    def __init__(self, url: str, prefix: str, failures: int, window: float) -> None:
        from redis import asyncio as aioredis  # the cluster extra

        self.redis = aioredis.Redis.from_url(url, socket_timeout=2.0)
        self.prefix = f"{prefix}login:"
        self.failures = failures
        self.window = window
        self.local = MemoryLimits(failures, window)
        self._attempt = self.redis.register_script(ATTEMPT)

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """See :class:`LoginLimits`."""
        from redis.exceptions import RedisError

        keys = _keys(address, name)
        mark = secrets.token_hex(8)
        try:
            wait = float(await self._attempt(
                keys=[self.prefix + key for key in keys],
                args=[self.window, self.failures, self.window / self.failures, mark],
            ))
        except (RedisError, OSError) as error:
            log.warning("login limits: Redis is not answering (%s); counting here", error)
            local = await self.local.attempt(address, name)
            return local if isinstance(local, int) else Attempt(keys, local.mark, local=True)
        return _whole(wait) if wait > 0 else Attempt(keys, mark)

    async def forgive(self, attempt: Attempt) -> None:
        """See :class:`LoginLimits`."""
        from redis.exceptions import RedisError

        if attempt.local:
            await self.local.forgive(attempt)
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in attempt.keys:
                    pipe.zrem(self.prefix + key, attempt.mark)
                await pipe.execute()
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
