"""The director's lease between in-process cluster nodes (doubles for the store, the lobby and
the director; the shared Redis): one node runs the director, another takes over when its lease
runs out, and the director's word about a table reaches the node that serves it, once for each
change of what it says."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from baofen.server import ServerConfig
from baofen.server.cluster.bus import Envelope
from baofen.server.cluster.directing import Directing, NodeRounds
from baofen.server.cluster.node import Node
from baofen.server.cluster.ownership import Ownership
from baofen.server.lobby.lobby import Lobby
from baofen.server.tournaments.director import Director
from baofen.store.async_store import AsyncStore

from .cluster import SHARED_REDIS
from .fakes import NodeLobby, NodeStore, clear_redis, run

LEASE = 0.6


class Table:
    """What the director touches of a table of a round being played."""

    closed = False
    status = "playing"

    def close(self) -> None:
        self.closed = True

    def __init__(self) -> None:
        self.seating = type("Seating", (), {"tournament": False})()
        self.lock = asyncio.Lock()
        self.timers = type("Timers", (), {"changed": asyncio.Event()})()
        self.views = type("Views", (), {"serving": staticmethod(lambda: False)})()


class FakeDirector:
    def __init__(self) -> None:
        self.running = False

    def start(self) -> None:
        self.running = True

    async def close(self) -> None:
        self.running = False


@asynccontextmanager
async def nodes(count: int) -> AsyncIterator[list[Node]]:
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    made: list[tuple[Node, NodeStore]] = []
    for number in range(count):
        config = ServerConfig(db="sqlite://", redis=SHARED_REDIS, redis_prefix=prefix,
                              node=f"n{number}", lease_seconds=LEASE)
        store = NodeStore()
        ownership = Ownership(config, cast(AsyncStore, store))
        this = Node(config, cast(Lobby, NodeLobby(store)), ownership)
        await this.start()
        made.append((this, store))
    try:
        yield [this for this, _ in made]
    finally:
        for this, store in made:
            store.never.set()
            await this.close()
        clear_redis(prefix)


async def until(check: Any, limit: float = 5.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, "it did not happen"
        await asyncio.sleep(0.02)


def test_one_node_runs_the_director_and_another_takes_over_when_it_dies() -> None:
    async def test() -> None:
        async with nodes(2) as (first, second):
            one = Directing(first, cast(Director, FakeDirector()))
            two = Directing(second, cast(Director, FakeDirector()))
            await one.keep()
            await two.keep()
            assert one.director.running and not two.director.running
            await two.keep()  # still held by the first
            assert not two.director.running
            await asyncio.sleep(1.5 * LEASE)  # the first died: nobody renews its lease
            await two.keep()
            assert two.director.running
            await one.keep()  # woken up: it finds the lease held by the second and stops
            assert not one.director.running and one.fence is None
    run(test)


def test_the_directors_word_reaches_the_node_serving_a_table() -> None:
    async def test() -> None:
        async with nodes(2) as (director, server):
            rounds = NodeRounds(director)
            NodeRounds(server)
            table = Table()
            server.lobby.tables["t1"] = table
            assert await server.ownership.claim("t1")
            assert await rounds.local("t1") is None  # served by the other node
            await rounds.attend("t1", True)
            await until(lambda: table.seating.tournament)
            await rounds.attend("t1", False)
            await until(lambda: not table.seating.tournament)
    run(test)


def test_the_director_tells_a_table_only_what_changed() -> None:
    """The director asks every tick; the node serving the table hears each word once, and a
    node that took the table since (a new lease: a new table there that heard nothing) hears
    it again."""
    async def test() -> None:
        async with nodes(3) as (director, first, second):
            rounds = NodeRounds(director)
            heard: dict[str, list[int]] = {}
            for node in (first, second):
                NodeRounds(node)
                tell = node.handlers["attend"]

                def hear(envelope: Envelope, tell: Any = tell, name: str = node.id) -> None:
                    heard.setdefault(name, []).append(envelope.number)
                    tell(envelope)

                node.handlers["attend"] = hear
            table = first.lobby.tables["t1"] = Table()
            assert await first.ownership.claim("t1")
            for _ in range(5):  # five ticks of the round
                await rounds.attend("t1", True)
            await until(lambda: table.seating.tournament)
            await asyncio.sleep(0.2)
            assert heard == {"n1": [1]}
            # the first node let go of the table and the second took it
            fence = first.ownership.disown("t1")
            assert fence is not None
            await asyncio.sleep(LEASE / 3)  # a renewal under way may set the lease again
            await first.ownership.release("t1", fence)
            taken = second.lobby.tables["t1"] = Table()
            assert await second.ownership.claim("t1")
            for _ in range(3):
                await rounds.attend("t1", True)
            await until(lambda: taken.seating.tournament)
            # the round is over (said once, at its end): nothing is kept of the table
            await rounds.attend("t1", False)
            await until(lambda: not taken.seating.tournament)
            assert rounds.said == {}
            await asyncio.sleep(0.2)
            assert heard == {"n1": [1], "n2": [1, 0]}
    run(test)
