"""Tournaments in a cluster: one node runs the director, the one that holds its lease.

The director's lease is a table lease (:class:`~.lease.Leases`) under a name no table code
takes (:data:`LEASE`): every node tries to take it every sixth of a lease period; its holder
renews it as often and runs the director (:class:`~..tournaments.director.Director`), which
keeps nothing of its own (every event's state is stored). When that node dies its lease runs
out and the next node to try takes it: its director reads every event from the store and goes
on. A node that finds its lease held by another (frozen past it) stops its director at once.

A round's tables are ordinary tables of the cluster (:class:`NodeRounds`): the director's node
creates and owns them, and any node may serve them later (a client asked it for one whose node
died, or it found one orphaned). The director reaches a table another node serves through the
registry (its status) and the bus (an ``attend`` message: the round runs, or is over), sent
when what it says changes for that table: a new word, or a new lease (the table taken since
is a new table there that has heard nothing), or the last one found no listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from redis.exceptions import RedisError

from ...ruleset import RuleSet
from ...wire.settings import TableSettings
from ..table.table import Table
from ..tournaments.director import Director, attend
from .bus import Envelope
from .lease import node_of
from .node import CODE, Node

log = logging.getLogger(__name__)

LEASE = "~director"
"""The name of the director's lease (a table code never has a ``~``)."""


class NodeRounds:
    """The round tables as the director's node reaches them (the director's ``tables``)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        node.handlers["attend"] = self._attend
        self.said: dict[str, tuple[str, bool]] = {}
        """The last ``attend`` sent for each table whose round runs: the lease it went to
        and its word (the director asks every tick; the node needs telling once)."""

    async def create(self, rules: RuleSet, settings: TableSettings, seed: int) -> Table:
        return await self.node.create(rules, settings, seed)

    async def local(self, code: str) -> Table | None:
        table = self.node.lobby.tables.get(code)
        if table is not None and not table.closed:
            return table
        if not CODE.fullmatch(code) or await self.node.leases.holder(code) not in (
                None, self.node.id):
            return None
        taken = await self.node.take_table(code)
        return taken if isinstance(taken, Table) else None

    async def status(self, code: str) -> str | None:
        info = await self.node.info(code)
        status = None if info is None else info.status
        if status == "finished":  # the director says no more to it
            self.said.pop(code, None)
        return status

    async def attend(self, code: str, playing: bool) -> None:
        lease = await self.node.leases.lease(code)
        holder = node_of(lease)
        if lease is None or holder is None or holder == self.node.id:
            return
        if self.said.get(code) == (lease, playing):
            return
        envelope = Envelope("attend", "-", self.node.id, int(playing), code)
        heard = 0
        with contextlib.suppress(RedisError, OSError):
            heard = await self.node.bus.post(holder, envelope)
        if not playing:  # the round is over: nothing more is said of this table
            self.said.pop(code, None)
        elif heard:  # unheard (the node subscribes again, Redis failed): said again next tick
            self.said[code] = (lease, playing)

    def _attend(self, envelope: Envelope) -> None:
        """The director's message about a table of this node."""
        table = self.node.lobby.tables.get(envelope.table)
        if table is not None and not table.closed:
            self.node.spawn(attend(table, bool(envelope.number)))


class Directing:
    """Keeps trying for the director's lease; runs ``director`` while this node holds it."""

    def __init__(self, node: Node, director: Director) -> None:
        self.node = node
        self.director = director
        self.fence: int | None = None
        """The fencing number of the director's lease while this node holds it."""
        self._task: asyncio.Task[None] | None = None
        self._renewed = 0.0
        """When the lease was last taken or renewed (monotonic)."""

    def start(self) -> None:
        """Start trying for the lease."""
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def close(self) -> None:
        """Stop the director and let go of its lease (another node takes it at once)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.director.close()
        if self.fence is not None:
            with contextlib.suppress(RedisError, OSError):
                await self.node.leases.release(LEASE, self.fence)

    async def _keep(self) -> None:
        period = self.node.config.lease_seconds / 6
        while True:
            try:
                async with asyncio.timeout(2 * period):
                    await self.keep()
            except (RedisError, OSError, TimeoutError) as error:
                log.warning("node %s: the director's lease: %r", self.node.id, error)
                # Unrenewed for half a lease: another node may take it soon; stop first.
                if self.fence is not None and time.monotonic() - self._renewed > 3 * period:
                    self.fence = None
                    await self.director.close()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: keeping the director's lease failed", self.node.id)
            await asyncio.sleep(period)

    async def keep(self) -> None:
        """Renew the lease, or take it when nobody holds it; start or stop the director."""
        leases = self.node.leases
        if self.fence is not None and await leases.renew({LEASE: self.fence}):
            log.warning("node %s: another node runs the tournaments now", self.node.id)
            self.fence = None
            await self.director.close()
        elif self.fence is not None:
            self._renewed = time.monotonic()
        if self.fence is None:
            self.fence = await leases.acquire(LEASE)
            if self.fence is not None:
                self._renewed = time.monotonic()
                log.info("node %s runs the tournaments (fence %d)", self.node.id, self.fence)
        if self.fence is not None and not self.director.running:
            self.director.start()
