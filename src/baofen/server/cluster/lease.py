"""Table leases in Redis: which node owns a table, for how long, with which fencing number.

A lease is the key ``<prefix>lease:<code>`` holding ``<node>|<fence>``, set with an expiry
(``SET … PX``) and renewed by its node every sixth of it. Taking a lease draws the next fencing
number of the table (``INCR <prefix>fence:<code>``); the node then claims that number in the
database (:meth:`~baofen.store.Store.claim`), which from then on refuses the writes of any
node holding an older one. The database, not Redis, has the last word: when Redis lost its
keys (a restart), the counter starts again from zero, the claim fails, and the node raises the
counter past the database's number (:meth:`Leases.raise_counter`) before trying again.
"""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis

_ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[1]) + 1) ~= ARGV[1] .. '|' then return 0 end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return fence
"""
"""Take the lease when nobody (or this node already) holds it: its new fencing number, or 0."""

_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  if held == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1]) kept[i] = 1
  elseif not held then
    redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1]) kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""
"""Extend this node's leases; set one again when it expired or Redis lost it and nobody took it
meanwhile (the node's fencing number is still the database's then); 0 when another node holds
it."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""


class Leases:
    """This node's view of the table leases (one Redis client, shared with the bus)."""

    def __init__(self, redis: Redis, prefix: str, node: str, seconds: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.milliseconds = max(1, round(seconds * 1000))
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._raise = redis.register_script(_RAISE)

    def key(self, code: str) -> str:
        """The Redis key of the table's lease (its value: see :func:`node_of`)."""
        return f"{self.prefix}lease:{code}"

    def _value(self, fence: int) -> str:
        return f"{self.node}|{fence}"

    async def holder(self, code: str) -> str | None:
        """The node that holds the table's lease now, or None."""
        return node_of(await self.redis.get(self.key(code)))

    async def lease(self, code: str) -> str | None:
        """The table's lease now as one value (its node and fencing number), or None: a new
        value each time a node takes the table."""
        value = await self.redis.get(self.key(code))
        return None if value is None else (
            value.decode() if isinstance(value, bytes) else str(value))

    async def holders(self, codes: list[str]) -> list[str | None]:
        """:meth:`holder` of several tables in one round trip."""
        if not codes:
            return []
        return [node_of(value) for value in await self.redis.mget([self.key(c) for c in codes])]

    async def acquire(self, code: str) -> int | None:
        """Take the table's lease: its new fencing number, or None when another node holds it."""
        fence = int(cast(Any, await self._acquire(
            keys=[self.key(code), f"{self.prefix}fence:{code}"],
            args=[self.node, self.milliseconds],
        )))
        return fence or None

    async def renew(self, fences: dict[str, int]) -> list[str]:
        """Renew the leases of these tables (code → fencing number), in one round trip: the
        codes of those another node holds now."""
        if not fences:
            return []
        results = cast(list[Any], await self._renew(
            keys=[self.key(code) for code in fences],
            args=[self.milliseconds, *(self._value(fence) for fence in fences.values())],
        ))
        return [code for code, kept in zip(fences, results, strict=True) if not int(kept)]

    async def release(self, code: str, fence: int) -> None:
        """Let go of the table's lease (when this node still holds it)."""
        await self._release(keys=[self.key(code)], args=[self._value(fence)])

    async def raise_counter(self, code: str, fence: int) -> None:
        """Make the table's next fencing number greater than ``fence``."""
        await self._raise(keys=[f"{self.prefix}fence:{code}"], args=[fence])


def node_of(value: bytes | str | None) -> str | None:
    """The node of a lease's value (None: no lease)."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    return text.rsplit("|", 1)[0]
