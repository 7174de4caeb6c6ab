"""Where the routes find tables: the :class:`Tables` of this server, one server's
(:class:`LocalTables`, the lobby) or a cluster node's (:class:`~..cluster.node.Node`, which
finds the node that owns a table). The app builds one (``app.state.tables``); the REST and
WebSocket routes use it alike in both modes."""

from __future__ import annotations

from typing import Protocol

from ...ruleset import RuleSet
from ...wire.settings import TableSettings
from ...wire.table import TableInfo
from ..table.table import Table
from ..transport.connections import Connection, Receive
from .lobby import Lobby

CLOSE_NOT_MEMBER = 4403
"""Close code of a club table's connection whose account left the club."""


class Remote(Protocol):
    """Cluster mode: a table another node owns, to which a client's frames are relayed."""

    async def relay(self, receive: Receive) -> None:
        """Relay every frame to the owner, and its answers back, until the connection ends."""


class Tables(Protocol):
    """The tables of this server, as its routes use them. Each method raises
    :class:`~baofen.store.async_store.StoreUnavailable` when the store (or, in cluster mode,
    Redis) cannot say."""

    async def create(self, rules: RuleSet, settings: TableSettings,
                     seed: int | None = None) -> Table:
        """A new table served here, stored (:class:`~..table.seats.TableError` when there is no
        room for it, or it cannot be set up); ``seed``: its match's (default: a fresh one)."""

    async def view(self, code: str) -> Table | None:
        """The table of ``code`` to read (REST), or None when there is none: in cluster mode
        another node's is rebuilt from the stored log (its information names its node)."""

    async def info(self, code: str) -> TableInfo | None:
        """The public information of the table of ``code``, or None when there is none: in
        cluster mode another node's as its owner published it."""

    async def route(self, code: str, connection: Connection) -> Table | Remote | None:
        """Where a WebSocket connection to ``code`` goes: the table when it is served here
        (in cluster mode, taking it when nobody owns it), the way to the node that serves it,
        or None when there is no such table."""

    async def listing(self) -> list[TableInfo]:
        """The open tables that are not private (in cluster mode: of every node)."""

    async def forget_account(self, account_id: int) -> None:
        """A deleted account: the tables in memory forget it (in cluster mode: every node's)."""

    async def close_watchers(self, codes: list[str], account_id: int) -> None:
        """Close the connections of ``account_id`` watching the tables of ``codes`` (a member
        removed from their club) with :data:`CLOSE_NOT_MEMBER`; in cluster mode on every
        node."""

    async def start(self) -> None:
        """Start serving: resume (or, in cluster mode, join the cluster)."""

    async def close(self) -> None:
        """Stop serving (shutdown); everything is already stored."""


class LocalTables:
    """One server's tables: all in its :class:`Lobby`."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def create(self, rules: RuleSet, settings: TableSettings,
                     seed: int | None = None) -> Table:
        return await self.lobby.create(rules, settings, seed)

    async def view(self, code: str) -> Table | None:
        return await self.lobby.get(code)

    async def info(self, code: str) -> TableInfo | None:
        table = await self.lobby.get(code)
        return None if table is None else table.public

    async def route(self, code: str, connection: Connection) -> Table | None:
        return await self.lobby.get(code)

    async def listing(self) -> list[TableInfo]:
        return self.lobby.listing()

    async def forget_account(self, account_id: int) -> None:
        await self.lobby.forget_account(account_id)

    async def close_watchers(self, codes: list[str], account_id: int) -> None:
        self.lobby.close_watchers(codes, account_id, CLOSE_NOT_MEMBER)

    async def start(self) -> None:
        await self.lobby.resume()

    async def close(self) -> None:
        await self.lobby.close()
