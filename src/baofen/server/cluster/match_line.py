"""The quick-match line in Redis, shared by every server process of a cluster.

Each operation is one Lua script, which Redis runs atomically: two processes taking a group at
the same moment never take the same ticket. Times come from the Redis server's clock (``TIME``),
so that the processes' clocks need not agree. Keys (under ``prefix``):

- ``line:{variant}``: sorted set of waiting tickets, scored by when they came (ms);
- ``seen:{variant}``: the same tickets, scored by when their holder last asked for news;
- ``ticket:{id}``: hash of the ticket (variant, name, account, client address and browser,
  status, and once seated the table code, seat and seat token), expiring
  :data:`~..quickmatch.line.KEEP_SECONDS` after it was last asked about.

(The ticket hashes are named inside the scripts, so this needs one Redis, not Redis Cluster.)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, cast

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from redis.typing import EncodableT, FieldT

from ...setting import Variant
from ...store.accounts import Account
from ..quickmatch.line import (
    KEEP_SECONDS,
    STARTING_SECONDS,
    TABLE_SIZE,
    MatchQueue,
    QueueUnavailable,
    SeatAssignment,
    TicketState,
    Waiting,
)

POOL_SIZE = 32
"""Connections to Redis a server process keeps open at most."""
POOL_WAIT_SECONDS = 5.0
"""A call waits this long for a free connection before the line counts as not answering."""

NOW_MS = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) "

PUT = NOW_MS + """
redis.call('HSET', KEYS[3], 'variant', ARGV[1], 'name', ARGV[2], 'account', ARGV[3],
           'status', 'waiting', 'address', ARGV[6], 'holder', ARGV[7], 'browser', ARGV[8])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZADD', KEYS[2], now, ARGV[5])
"""
"""KEYS: line, seen, ticket; ARGV: variant, name, account, keep ms, ticket id, address, holder
(the account's id, empty for a guest), browser."""

TAKE = NOW_MS + """
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
for _, id in ipairs(stale) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HSET', ARGV[3] .. id, 'status', 'cancelled')
end
local size = tonumber(ARGV[4])
local ids, holders = {}, {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if #ids == size then break end
  local marks = {}
  for _, kind in ipairs({'address', 'browser'}) do
    local mark = redis.call('HGET', ARGV[3] .. id, kind) or ''
    if mark ~= '' then table.insert(marks, kind .. ':' .. mark) end
  end
  local holder = redis.call('HGET', ARGV[3] .. id, 'holder') or ''
  local free = true
  for _, mark in ipairs(marks) do
    local at = holders[mark]
    if at ~= nil and (holder == '' or at ~= holder) then free = false end
  end
  if free then
    for _, mark in ipairs(marks) do holders[mark] = holder end
    table.insert(ids, id)
  end
end
if #ids == 0 then return {} end
if #ids < size then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if now - tonumber(oldest[2]) < tonumber(ARGV[1]) then return {} end
end
local group = {}
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HSET', ARGV[3] .. id, 'status', 'starting', 'taken', now)
  table.insert(group, id)
  table.insert(group, redis.call('HGET', ARGV[3] .. id, 'name') or '')
  table.insert(group, redis.call('HGET', ARGV[3] .. id, 'account') or '')
  table.insert(group, redis.call('HGET', ARGV[3] .. id, 'address') or '')
  table.insert(group, redis.call('HGET', ARGV[3] .. id, 'browser') or '')
end
return group
"""
"""KEYS: line, seen; ARGV: wait ms, stale ms, ticket key prefix, table size. The oldest
ticket's group as :func:`~..quickmatch.line.table_group` makes it, returned flat: id, name,
account, address and browser of each."""

STATE = NOW_MS + """
local ticket = redis.call('HGETALL', KEYS[1])
if #ticket == 0 then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local fields = {}
for i = 1, #ticket, 2 do fields[ticket[i]] = ticket[i + 1] end
if ARGV[5] == '1' and fields['token'] then redis.call('HDEL', KEYS[1], 'token') end
if fields['status'] == 'starting' and now - tonumber(fields['taken']) > tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'status', 'cancelled')
  for i = 1, #ticket, 2 do
    if ticket[i] == 'status' then ticket[i + 1] = 'cancelled' end
  end
end
local line = ARGV[3] .. 'line:' .. fields['variant']
if fields['status'] == 'waiting' then
  redis.call('ZADD', ARGV[3] .. 'seen:' .. fields['variant'], 'XX', now, ARGV[1])
end
local oldest = redis.call('ZRANGE', line, 0, 0, 'WITHSCORES')
local waited = 0
if #oldest > 0 then waited = now - tonumber(oldest[2]) end
return {ticket, redis.call('ZCARD', line), waited}
"""
"""KEYS: ticket; ARGV: ticket id, keep ms, key prefix, starting ms, '1' to hand out (and so
forget) the seat token. Returns the ticket's fields, the line's length and how long (ms) its
oldest has waited."""

CANCEL = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], 'status', 'cancelled')
return 1
"""
"""KEYS: line, seen, ticket; ARGV: ticket id."""


@contextlib.contextmanager
def _answering() -> Iterator[None]:
    """Raise :class:`QueueUnavailable` when Redis does not answer."""
    try:
        yield
    except RedisError as error:
        raise QueueUnavailable(f"Redis: {error}") from None


class RedisQueue(MatchQueue):
    """The line in the Redis at ``url``, its keys under ``prefix``."""

    def __init__(self, url: str, prefix: str = "baofen:match:") -> None:
        # A bounded pool that makes callers wait for a free connection (a burst of players
        # asking at once must not open a connection each, nor be refused).
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS, decode_responses=True
        )
        self.redis = aioredis.Redis.from_pool(pool)
        self.prefix = prefix
        self._put = self.redis.register_script(PUT)
        self._take = self.redis.register_script(TAKE)
        self._state = self.redis.register_script(STATE)
        self._cancel = self.redis.register_script(CANCEL)

    def _keys(self, variant: str, ticket: str | None = None) -> list[str]:
        keys = [f"{self.prefix}line:{variant}", f"{self.prefix}seen:{variant}"]
        return [*keys, self._ticket(ticket)] if ticket is not None else keys

    def _ticket(self, ticket: str) -> str:
        return f"{self.prefix}ticket:{ticket}"

    async def put(self, waiting: Waiting) -> None:
        """Add a ticket at the end of its variant's line."""
        with _answering():
            await self._put(
                keys=self._keys(waiting.variant, waiting.ticket),
                args=[waiting.variant, waiting.name, _account_text(waiting.account),
                      _ms(KEEP_SECONDS), waiting.ticket, waiting.address,
                      "" if waiting.account is None else waiting.account.id, waiting.browser],
            )

    async def take(self, variant: Variant, wait: float, stale: float) -> list[Waiting]:
        """Drop the stale tickets, then pop the group to seat now (see :class:`MatchQueue`)."""
        with _answering():
            flat = await self._take(
                keys=self._keys(variant),
                args=[_ms(wait), _ms(stale), f"{self.prefix}ticket:", TABLE_SIZE],
            )
        return [
            Waiting(flat[i], variant, flat[i + 1], _account(flat[i + 2]), *flat[i + 3:i + 5])
            for i in range(0, len(flat), 5)
        ]

    async def state(self, ticket: str, claim: bool = True) -> TicketState | None:
        """The ticket and its line's news (None: no such ticket); the holder is seen now."""
        with _answering():
            answer = await self._state(
                keys=[self._ticket(ticket)],
                args=[ticket, _ms(KEEP_SECONDS), self.prefix, _ms(STARTING_SECONDS),
                      "1" if claim else "0"],
            )
        if answer is None:
            return None
        flat, length, waited = cast(list[Any], answer)
        fields = dict(zip(flat[::2], flat[1::2], strict=True))
        assignment = None
        if fields["status"] == "seated":
            assignment = SeatAssignment(fields["code"], int(fields["seat"]), fields.get("token"))
        return TicketState(
            Waiting(ticket, fields["variant"], fields["name"], _account(fields["account"]),
                    fields.get("address", ""), fields.get("browser", "")),
            fields["status"], int(length), int(waited) / 1000, assignment,
        )

    async def cancel(self, ticket: str) -> bool:
        """Take a waiting ticket out of the line (True); False when it was not waiting."""
        with _answering():
            variant = cast(str | None, await self.redis.hget(self._ticket(ticket), "variant"))
            if variant is None:
                return False
            return bool(await self._cancel(keys=self._keys(variant, ticket), args=[ticket]))

    async def settle(self, ticket: str, assignment: SeatAssignment | None) -> None:
        """A taken ticket's outcome: seated, or cancelled."""
        fields: dict[FieldT, EncodableT] = {"status": "cancelled"}
        if assignment is not None:
            fields = {"status": "seated", "code": assignment.code, "seat": assignment.seat}
            if assignment.token is not None:
                fields["token"] = assignment.token
        with _answering():
            async with self.redis.pipeline() as pipe:
                pipe.hset(self._ticket(ticket), mapping=fields)
                pipe.pexpire(self._ticket(ticket), _ms(KEEP_SECONDS))
                await pipe.execute()

    async def close(self) -> None:
        """Close the connection pool."""
        await self.redis.aclose()


def _account_text(account: Account | None) -> str:
    """An account as a ticket keeps it (empty for a guest)."""
    if account is None:
        return ""
    return json.dumps([account.id, account.username, account.created.isoformat()])


def _account(text: str) -> Account | None:
    """The account of :func:`_account_text`."""
    if not text:
        return None
    ident, username, created = json.loads(text)
    return Account(ident, username, datetime.fromisoformat(created))


def _ms(seconds: float) -> int:
    return round(seconds * 1000)
