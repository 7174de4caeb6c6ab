"""Limits on password tries shared by the nodes of a cluster, in Redis (see
:mod:`..security.login_limits`): one Lua script checks and takes a try. Were Redis not
answering, each node goes on counting on its own
(:class:`~..security.login_limits.MemoryLimits`)."""

from __future__ import annotations

import logging
import secrets

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..security.login_limits import Attempt, MemoryLimits, try_keys, whole_seconds

log = logging.getLogger(__name__)

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
        self.redis = Redis.from_url(url, socket_timeout=2.0)
        self.prefix = f"{prefix}login:"
        self.failures = failures
        self.window = window
        self.local = MemoryLimits(failures, window)
        self._attempt = self.redis.register_script(ATTEMPT)

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """See :class:`LoginLimits`."""
        keys = try_keys(address, name)
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
        return whole_seconds(wait) if wait > 0 else Attempt(keys, mark)

    async def forgive(self, attempt: Attempt) -> None:
        """See :class:`LoginLimits`."""
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
