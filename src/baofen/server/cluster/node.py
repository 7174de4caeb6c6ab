"""One node of a cluster: which tables it owns, and the way to the others' tables.

A node owns a table while it holds its lease (:mod:`.lease`); it is then the only one that
applies the table's changes and writes its log, with the fencing number of its lease
(:mod:`.ownership`, handed to the store and the lobby when they are built). A client may
connect to any node: the node that owns the table serves it as a single server does; any other
relays it to the owner (:mod:`.relay`). A table nobody owns (new, or its node died and its
lease ran out) is taken by the first node a client asks for it, which rebuilds it from the
stored log; one nobody asks for is taken by the first node that finds it unowned two scans in a
row (once a lease period).

Every sixth of a lease period a node renews its leases (:meth:`Node.renew`, a task of its own
that waits on nothing else); every third (:meth:`Node.tick`) it also lets go of
the tables another node took (a node frozen past its lease finds out here, if its writes were
not refused first), ends the relays of tables that moved (their clients reconnect, and find the
new owner), and ends the sessions of nodes that are gone. Beside, it publishes its tables'
information as it changes (:mod:`.registry`): the lobby of every node and reads of tables
another node owns (:meth:`Node.info`) are answered from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from ...ruleset import RuleSet
from ...store.async_store import AsyncStore, StoreUnavailable
from ...wire.settings import TableSettings
from ...wire.table import TableInfo
from ..config import ServerConfig
from ..lobby.directory import CLOSE_NOT_MEMBER
from ..lobby.lobby import Lobby
from ..table.table import Table
from ..transport.connections import Connection
from .bus import Bus, Envelope
from .ownership import Ownership
from .registry import Registry
from .relay import CLOSE_MOVED, Relay, Session

log = logging.getLogger(__name__)

CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table code looks like (anything else names no table)."""

PATIENCE_LEASES = 2.0
"""Lease periods a client's request waits for a dead owner's lease to run out."""


def node_name() -> str:
    """A name for this node: its host, process and a random suffix."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:32] or "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(2)}"


@dataclass(slots=True)
class _Taking:
    """The lock of the requests taking one table, and how many use it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class Node:
    """This node: its leases, its bus, its relays and the sessions of other nodes' clients."""

    def __init__(self, config: ServerConfig, lobby: Lobby, ownership: Ownership) -> None:
        assert config.redis is not None and config.node is not None
        self.config = config
        self.id = config.node
        self.lobby = lobby
        self.store: AsyncStore = lobby.store
        self.ownership = ownership
        self.fences = ownership.fences
        """The fencing number of every table this node owns (:class:`Ownership`'s)."""
        self.leases = ownership.leases
        self.bus = Bus(ownership.redis, config.redis, config.redis_prefix, self.id,
                       self._take, self._resubscribed)
        self.registry = Registry(ownership.redis, config, self.store, self.leases)
        """The cluster's open tables, and other nodes' tables rebuilt for reading."""
        self.relays: dict[str, Relay] = {}
        """Session → relay of each client here at a table of another node."""
        self.sessions: dict[str, Session] = {}
        """Session → each client of another node at a table here."""
        self.handlers: dict[str, Callable[[Envelope], None]] = {
            "forget": lambda e: self.spawn(self.lobby.forget_account(e.number)),
            "unwatch": lambda e: self.lobby.close_watchers(e.body.split(), e.number,
                                                           CLOSE_NOT_MEMBER)}
        """Messages from other nodes about no client: a deleted account, a removed member."""
        self._taking: dict[str, _Taking] = {}
        self._silent: set[str] = set()
        self._orphans: set[str] = set()
        self._ticks = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._publisher: asyncio.Task[None] | None = None
        self._scan: asyncio.Task[None] | None = None
        self._renewed: float | None = None
        self.worst_renewal = 0.0
        """The longest time between two renewals of the leases that got an answer (seconds;
        the lease's margin is ``lease_seconds`` less this)."""

    # -- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the cluster: listen on the bus, and keep the leases. (No table is resumed: a
        node takes its tables when they are asked for, since another node may own them.)"""
        await self.bus.start()
        loop = asyncio.get_running_loop()
        self._ticker = loop.create_task(self._tick_forever())
        self._renewer = loop.create_task(self._renew_forever())
        self._publisher = loop.create_task(self.registry.publish_forever(self.lobby.tables))
        log.info("node %s joined the cluster", self.id)
        self.lobby.start()

    async def close(self) -> None:
        """Leave: stop this node's tables, let go of every lease (the tables are stored), stop
        listening."""
        await self.lobby.close()
        for task in (self._ticker, self._renewer, self._publisher, self._scan):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.ownership.release_all()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()
        await self.ownership.close()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background (kept until done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- routing ------------------------------------------------------------------------------

    async def route(self, code: str, connection: Connection) -> Table | Relay | None:
        """The table when this node owns it (taking it when nobody does), a relay to the node
        that owns it, or None when there is no such table. :class:`StoreUnavailable` when
        Redis or the database do not answer, or the owner does not, for too long."""
        if not CODE.fullmatch(code):
            return None
        patience = time.monotonic() + PATIENCE_LEASES * self.config.lease_seconds + 1
        try:
            while True:
                table = self.lobby.tables.get(code)
                if table is not None and table.closed:  # a write found it fenced
                    self._let_go(code)
                elif table is not None:
                    return table
                holder = await self.leases.holder(code)
                if holder is None or holder == self.id:
                    taken = await self.take_table(code)
                    if taken is None or isinstance(taken, Table):
                        return taken
                elif holder in await self.bus.listening([holder]):
                    return Relay(self, code, holder, connection, secrets.token_hex(8))
                if time.monotonic() > patience:
                    raise StoreUnavailable("the table's node does not answer")
                await asyncio.sleep(self.config.lease_seconds / 10)
        except (RedisError, OSError) as error:
            log.warning("node %s: Redis failed on routing table %s: %r", self.id, code, error)
            raise StoreUnavailable(f"Redis is not answering: {error}") from None

    async def take_table(self, code: str) -> Table | bool | None:
        """Take the table's lease, claim it and load it: the table, None when there is no
        such table, False when another node took it first."""
        # One taker per table at a time (the lock is kept while anyone waits on it).
        taking = self._taking.setdefault(code, _Taking())
        taking.users += 1
        try:
            async with taking.lock:
                table = self.lobby.tables.get(code)
                if table is not None:
                    return table
                fence = await self.ownership.claim(code)
                if fence is None:
                    return False
                if fence == 0:
                    return None
                table = await self.lobby.take(code)
                if table is None:  # expired meanwhile
                    self._let_go(code)
                else:
                    log.info("node %s took table %s (fence %d)", self.id, code, fence)
                return table
        finally:
            taking.users -= 1
            if not taking.users:
                del self._taking[code]

    def _let_go(self, code: str) -> None:
        """Forget a table this node no longer owns: close it (its clients reconnect)."""
        fence = self.ownership.disown(code)
        table = self.lobby.tables.pop(code, None)
        self.registry.forget(code)
        if table is not None:
            table.close()
        if fence is not None:
            self.spawn(self.ownership.release(code, fence))

    # -- the bus ------------------------------------------------------------------------------

    async def send(self, node: str, envelope: Envelope) -> bool:
        """:meth:`.bus.Bus.send`, for up to a lease period."""
        return await self.bus.send(node, envelope, self.config.lease_seconds)

    async def post(self, node: str, envelope: Envelope) -> None:
        """Publish to ``node`` once; a lost message is asked for again by its receiver."""
        with contextlib.suppress(RedisError, OSError):
            await self.bus.post(node, envelope)

    def post_soon(self, node: str, envelope: Envelope) -> None:
        """:meth:`post` in the background."""
        self.spawn(self.post(node, envelope))

    def _take(self, envelope: Envelope) -> None:
        """A message from another node."""
        handler = self.handlers.get(envelope.op)
        if handler is not None:
            return handler(envelope)
        relay = self.relays.get(envelope.session)
        if relay is not None:
            relay.take(envelope)
            return
        session = self.sessions.get(envelope.session)
        if session is not None:
            session.take(envelope)
        elif envelope.op == "open":
            self._open(envelope)
        elif envelope.op in ("msg", "refused", "resync", "out"):
            # From a client of a session not served here (now): it reconnects; to a client
            # gone from here (its "close" was lost): its session ends.
            op, number = ("close", 0) if envelope.op == "out" else ("end", CLOSE_MOVED)
            self.post_soon(envelope.sender,
                           Envelope(op, envelope.session, self.id, number, envelope.table))

    def _open(self, envelope: Envelope) -> None:
        table = self.lobby.tables.get(envelope.table)
        if table is None or table.closed:  # not ours (any more): the client finds the owner
            self.post_soon(envelope.sender,
                           Envelope("end", envelope.session, self.id, CLOSE_MOVED, envelope.table))
        else:
            session = self.sessions[envelope.session] = Session(self, envelope, table)
            self.spawn(session.run())

    def _resubscribed(self) -> None:
        """After the bus was lost: ask every owner for what this node's clients missed, and
        every client's node for the frames its clients sent here meanwhile."""
        for relay in self.relays.values():
            relay.resync()
        for session in self.sessions.values():
            session.again()

    # -- once a lease period ------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_seconds / 3)
            try:
                await self.tick()
            except (RedisError, OSError, TimeoutError) as error:
                # The database's fencing still guards the tables; go on and try again.
                log.warning("node %s: Redis is not answering: %s", self.id, error)
            except Exception:
                log.exception("node %s: the lease keeper failed; going on", self.id)

    async def _renew_forever(self) -> None:
        """Renew the leases every sixth of a lease on their own, whatever else the ticks wait
        for (a slow registry, relays), so that only a node cut from Redis lets them lapse."""
        while True:
            await asyncio.sleep(self.config.lease_seconds / 6)
            try:
                await self.renew()
            except (RedisError, OSError, TimeoutError) as error:
                log.warning("node %s: could not renew the leases: %r", self.id, error)
            except Exception:
                log.exception("node %s: renewing the leases failed; going on", self.id)

    async def tick(self) -> None:
        """Renew, let go of lost tables, end moved relays and orphaned sessions. The
        renewal comes first and nothing here waits on the database: the scan for orphaned
        tables (a database read, and loads) runs beside the ticks, one at a time."""
        await self.renew()
        tables = self.lobby.tables
        # A table being taken has its fence before the lobby holds it: not finished.
        for code in [c for c in self.fences if c not in tables and c not in self._taking]:
            await self.registry.unlist(code)  # finished, expired
            self._let_go(code)
        await self._check_relays()
        await self._check_sessions()
        self._ticks += 1
        if self._ticks % 3 == 0 and (self._scan is None or self._scan.done()):
            self._scan = asyncio.get_running_loop().create_task(self._take_orphans())

    async def renew(self) -> None:
        """Renew this node's leases (one Redis round trip, bounded by a third of a lease); let
        go of the tables another node holds now. The gap since the last renewal that got an
        answer is the lease's margin spent (:attr:`worst_renewal`)."""
        async with asyncio.timeout(self.config.lease_seconds / 3):
            lost = await self.leases.renew(dict(self.fences))
        now = time.monotonic()
        if self._renewed is not None:
            gap = now - self._renewed
            self.worst_renewal = max(self.worst_renewal, gap)
            if gap > self.config.lease_seconds / 2:
                log.warning("node %s: leases renewed %.2f s after the last renewal (lease "
                            "%.1f s)", self.id, gap, self.config.lease_seconds)
        self._renewed = now
        for code in lost:
            log.warning("node %s: table %s is owned by another node now", self.id, code)
            self._let_go(code)

    async def _take_orphans(self) -> None:
        """Take the unfinished tables that nobody owned at this scan nor at the one before (a
        lease period ago: a live owner renews its lease every sixth of that, also after Redis
        restarted): their node died, and no client has asked for them since. Their matches
        go on (computer players, timers) without waiting for a player to come back."""
        try:
            codes = [c for c in await self.store.unfinished() if c not in self.lobby.tables]
            holders = await self.leases.holders(codes)
            orphans = {c for c, holder in zip(codes, holders, strict=True) if holder is None}
            for code in sorted(orphans & self._orphans):
                with contextlib.suppress(StoreUnavailable):
                    await self.take_table(code)
            self._orphans = orphans
        except (StoreUnavailable, RedisError, OSError) as error:
            log.warning("node %s: the scan for orphaned tables failed: %r", self.id, error)
        except Exception:
            log.exception("node %s: the scan for orphaned tables failed", self.id)

    async def _check_relays(self) -> None:
        relays = list(self.relays.values())
        holders = await self.leases.holders([relay.code for relay in relays])
        for relay, holder in zip(relays, holders, strict=True):
            if holder != relay.owner:
                relay.connection.close(CLOSE_MOVED)
            elif relay.missing:
                relay.resync(again=False)

    async def _check_sessions(self) -> None:
        origins = sorted({session.origin for session in self.sessions.values()})
        gone = set(origins) - await self.bus.listening(origins)
        for session in list(self.sessions.values()):
            # A node silent twice in a row is gone (once: it may be subscribing again).
            if session.origin in gone and session.origin in self._silent:
                session.connection.close(CLOSE_MOVED)
            elif session.missing:  # asked at the gap; that answer may be lost too
                session.again(force=False)
        self._silent = gone

    async def forget_account(self, account_id: int) -> None:
        """A deleted account: this node's tables in memory forget it, and every other node's
        (:meth:`Bus.tell_all`)."""
        await self.lobby.forget_account(account_id)
        await self.bus.tell_all(Envelope("forget", "-", self.id, account_id))

    async def close_watchers(self, codes: list[str], account_id: int) -> None:
        """A member removed from a club: their watching connections close on every node."""
        self.lobby.close_watchers(codes, account_id, CLOSE_NOT_MEMBER)
        await self.bus.tell_all(Envelope("unwatch", "-", self.id, account_id, body=" ".join(codes)))

    # -- what the lobby shows -----------------------------------------------------------------

    async def create(self, rules: RuleSet, settings: TableSettings,
                     seed: int | None = None) -> Table:
        """A new table, owned by this node (the lobby adopts it, :meth:`Ownership.adopt`)."""
        return await self.lobby.create(rules, settings, seed)

    async def listing(self) -> list[TableInfo]:
        """Every node's open tables that are not private (from the registry)."""
        return await self.registry.listing()

    async def view(self, code: str) -> Table | None:
        """The table to read (REST): this node's, or another node's rebuilt from the stored
        log (:meth:`.registry.Registry.view`)."""
        table = self.lobby.tables.get(code)
        return table if table is not None or not CODE.fullmatch(code) else (
            await self.registry.view(code))

    async def info(self, code: str) -> TableInfo | None:
        """The table's public information: this node's table's, or another node's
        (:meth:`.registry.Registry.info`); None when there is no such table."""
        table = self.lobby.tables.get(code)
        if table is not None:
            return table.public
        return await self.registry.info(code) if CODE.fullmatch(code) else None
