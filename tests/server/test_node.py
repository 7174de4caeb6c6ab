"""A cluster node's leases and views against slow or lost peers, with doubles for the store
and the lobby (and the shared Redis): renewing never waits on the database, a table being
taken is not let go as finished, and a table whose fence is lost shows no more views."""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from baofen.server import ServerConfig
from baofen.server.cluster.bus import COMMAND_TIMEOUT, connect
from baofen.server.cluster.node import Node
from baofen.server.cluster.ownership import Ownership
from baofen.server.lobby.lobby import Lobby
from baofen.server.table import Table
from baofen.store.async_store import AsyncStore

from .cluster import SHARED_REDIS
from .fakes import FakeStore, NodeLobby, NodeStore, clear_redis, connection, received, run, started

LEASE = 0.6
LEASE_DEFAULT = ServerConfig().lease_seconds


class SlowLobby(NodeLobby):
    """A lobby whose loads wait until ``loaded`` is set."""

    def __init__(self, store: NodeStore) -> None:
        super().__init__(store)
        self.loaded = asyncio.Event()

    async def take(self, code: str) -> Any:
        await self.loaded.wait()
        table = self.tables[code] = _Served()
        return table


class _Served:
    """A table as the registry lists it (private: not listed)."""

    closed = False
    public = None

    class settings:  # the attribute of a table
        private = True

    def close(self) -> None:
        self.closed = True


@asynccontextmanager
async def node() -> AsyncIterator[tuple[Node, SlowLobby]]:
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    config = ServerConfig(db="sqlite://", redis=SHARED_REDIS, redis_prefix=prefix, node="n0",
                          lease_seconds=LEASE)
    store = NodeStore()
    lobby = SlowLobby(store)
    ownership = Ownership(config, cast(AsyncStore, store))
    this = Node(config, cast(Lobby, lobby), ownership)
    try:
        yield this, lobby
    finally:
        store.never.set()
        await this.close()
        clear_redis(prefix)


def test_leases_are_renewed_while_the_database_does_not_answer() -> None:
    async def test() -> None:
        async with node() as (this, lobby):
            lobby.loaded.set()
            assert await this.take_table("t1") is not None
            await this.start()
            holders = []
            for _ in range(round(4 * LEASE / 0.05)):  # over a few scans for orphaned tables
                await asyncio.sleep(0.05)
                holders.append(await this.leases.holder("t1"))
            assert holders == ["n0"] * len(holders)
            assert "t1" in this.fences
            assert this.worst_renewal < LEASE / 2
    run(test)


def test_a_table_being_taken_is_not_let_go() -> None:
    async def test() -> None:
        async with node() as (this, lobby):
            taking = asyncio.get_running_loop().create_task(this.take_table("t1"))
            while "t1" not in this.fences:  # claimed; now loading
                await asyncio.sleep(0.01)
            await this.tick()
            lobby.loaded.set()
            assert isinstance(await taking, _Served)
            assert this.fences.get("t1") is not None
            assert await this.leases.holder("t1") == "n0"
            await this.tick()
            assert this.fences.get("t1") is not None
    run(test)


def test_a_table_whose_fence_is_lost_shows_no_view() -> None:
    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        store.fences = {table.code: 1}
        watcher = connection()
        table.watch(watcher)
        table.views.send_state(watcher)
        received(me)
        assert [m["type"] for m in received(watcher)] == ["state"]
        store.fences.clear()  # the lease was taken: the write under way may be refused
        table.publish()
        table.views.send_state(watcher)
        assert received(me) == [] and received(watcher) == []
        assert isinstance(table, Table)
    run(test)


def test_redis_connections_end_on_a_silent_peer() -> None:
    """A command cut off mid-way fails within seconds, not after TCP's retransmissions."""
    client = connect(SHARED_REDIS)
    options = client.connection_pool.connection_kwargs
    assert options["socket_timeout"] == COMMAND_TIMEOUT <= LEASE_DEFAULT
    assert options["socket_keepalive"] is True
    assert options["socket_keepalive_options"][socket.TCP_USER_TIMEOUT] == COMMAND_TIMEOUT * 1000
