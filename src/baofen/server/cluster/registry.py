"""What a node reads of the whole cluster's tables: the registry in Redis of every open table's
public information, published by its owner as it changes (:meth:`Registry.update`): the lobby of
every node lists the public ones, and any node answers a read of any table from it
(:meth:`Registry.published`, one Redis round trip, never the database). A table that is not
published (finished, or its owner died before it published) is rebuilt from the stored log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from ...store.async_store import AsyncStore
from ...wire.table import TableInfo
from ..config import ServerConfig
from ..table.driver import drive
from ..table.table import Table
from .lease import Leases, node_of

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 0.1
"""How often a node publishes its tables' changed information (how far behind the owner
another node's reads of a table may be)."""

VIEWS_KEPT = 256
"""Other nodes' tables kept for reading (rebuilt, or their information), the most recently
read."""


class Registry:
    """The cluster's tables as one node reads them."""

    def __init__(self, redis: Redis, config: ServerConfig, store: AsyncStore,
                 leases: Leases) -> None:
        self.redis, self.config, self.store, self.leases = redis, config, store, leases
        self.key = f"{config.redis_prefix}tables"
        self._listed: dict[str, TableInfo] = {}
        """What this node published of each of its tables."""
        self._publishing = asyncio.Lock()
        """Held while publishing: a table unlisted meanwhile must not be published after."""
        self._read: OrderedDict[str, tuple[bytes, bytes | None, TableInfo]] = OrderedDict()
        """Other nodes' tables' information as last read: what was published and the lease,
        and the information they give (parsed again only when either changed)."""
        self._views: OrderedDict[str, tuple[tuple[Any, ...], Table]] = OrderedDict()
        """Other nodes' tables rebuilt for reading, each with what it was rebuilt from."""

    async def publish_forever(self, tables: Mapping[str, Table]) -> None:
        """:meth:`update` every :data:`PUBLISH_SECONDS` (a failure is tried again at the next
        turn; the node's ticks log Redis's failures)."""
        while True:
            await asyncio.sleep(PUBLISH_SECONDS)
            try:
                await self.update(tables)
            except (RedisError, OSError, TimeoutError):
                pass
            except Exception:
                log.exception("publishing the tables' information failed; going on")

    async def update(self, tables: Mapping[str, Table]) -> None:
        """Publish the information of this node's tables that changed since it was published
        (private tables too: they are read by their code, and never listed). Only what a table
        shows its clients is published: committed, under a fence this node still holds."""
        async with self._publishing:
            changed = {code: t.public for code, t in tables.items()
                       if t.views.serving() and self._listed.get(code) is not t.public}
            if changed:
                await self.redis.hset(self.key, mapping={
                    code: info.model_dump_json() for code, info in changed.items()
                })
                self._listed.update(changed)

    async def unlist(self, code: str) -> None:
        """Take a table of this node off the registry (finished or expired)."""
        async with self._publishing:
            if self._listed.pop(code, None) is not None:
                await self.redis.hdel(self.key, code)

    def forget(self, code: str) -> None:
        """A table another node owns now (it lists the table itself)."""
        self._listed.pop(code, None)

    async def listing(self) -> list[TableInfo]:
        """Every node's open tables that are not private (from the registry)."""
        try:
            listed = await self.redis.hgetall(self.key)
        except (RedisError, OSError):
            listed = {}
        infos: list[TableInfo] = []
        for data in listed.values():
            with contextlib.suppress(ValidationError):
                infos.append(TableInfo.model_validate_json(data))
        return [i for i in infos if not i.settings.private and i.status != "finished"]

    async def info(self, code: str) -> TableInfo | None:
        """Another node's table's information: as its owner published it, else rebuilt from
        the stored log (finished, or its owner died before it published); None when there is
        no such table."""
        published = await self.published(code)
        if published is not None:
            return published
        table = await self.view(code)
        return None if table is None else table.public

    async def published(self, code: str) -> TableInfo | None:
        """Another node's table as its owner last published it, naming the node that holds its
        lease now; None when it is not published (or Redis does not answer)."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hget(self.key, code)
                pipe.get(self.leases.key(code))
                data, lease = await pipe.execute()
        except (RedisError, OSError):
            return None
        if data is None:
            return None
        kept = self._read.get(code)
        if kept is not None and kept[:2] == (data, lease):
            self._read.move_to_end(code)
            return kept[2]
        try:
            info = TableInfo.model_validate_json(data)
        except ValidationError:
            return None
        info.node = node_of(lease)
        self._read[code] = (data, lease, info)
        while len(self._read) > VIEWS_KEPT:
            self._read.popitem(last=False)
        return info

    async def view(self, code: str) -> Table | None:
        """Another node's table rebuilt from the stored log (not served: its information names
        the node that owns it), or None when there is none."""
        stored = await self.store.load(code)
        if stored is None or stored.status == "expired":
            return None
        # Rebuilt once per version, off the event loop: replaying a long log on every read
        # would slow every table of this node.
        version = (stored.events[-1].seq if stored.events else 0, stored.status, stored.seats)
        kept = self._views.get(code)
        if kept is not None and kept[0] == version:
            table = kept[1]
            self._views.move_to_end(code)
        else:
            table = await asyncio.to_thread(
                Table.restore, stored, self.store, self.config, drive
            )
            self._views[code] = (version, table)
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        try:
            holder = await self.leases.holder(code)
        except (RedisError, OSError):
            holder = None
        table.views.public = table.public.model_copy(update={"node": holder})
        return table
