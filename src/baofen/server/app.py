"""The FastAPI application: REST lobby, WebSocket tables, and the store behind them."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..store import Store
from ..store.accounts import Accounts
from ..store.async_store import AsyncStore
from ..store.club_records import ClubRecords
from ..store.clubs import Clubs
from ..store.tournaments import Tournaments
from .clubs.invites import MemoryInvites, TableInvites
from .clubs.service import ClubState
from .config import ServerConfig
from .lobby.directory import LocalTables, Tables
from .lobby.lobby import Lobby
from .quickmatch.line import MatchQueue, MemoryQueue
from .quickmatch.matchmaker import Matchmaker
from .reviews.pool import Reviews
from .routes import (
    accounts,
    browser,
    challenge,
    club_invites,
    club_tables,
    clubs,
    pages,
    players,
    puzzles,
    quickmatch,
    rest,
    reviews,
    tournaments,
    websocket,
)
from .security.login_limits import LoginLimits, MemoryLimits
from .security.rate_limits import CreationLimits
from .tournaments.director import Director, LobbyRounds

log = logging.getLogger(__name__)

COLLECT_EVERY = 10_000
"""Net new objects between two collections of the youngest generation (Python's default: 700)."""


def _tune_collector() -> None:
    """Once the server has started: its objects so far (modules, models, resumed tables) are
    left out of the cyclic garbage collector's full passes (``gc.freeze``), and the youngest
    generation is collected after ``COLLECT_EVERY`` new objects. Every action makes and drops
    the views of four seats: with Python's defaults the collector took about a tenth of the
    server's CPU per action. Only where the server runs on the main
    thread (``baofen serve``: the process is the server's); a server started in a thread of
    another program (the tests) leaves that program's collector as it is."""
    if threading.current_thread() is not threading.main_thread():
        return
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(COLLECT_EVERY, middle, old)


async def _closed(part: str, closing: Awaitable[None], seconds: float) -> None:
    """Await ``closing``, for ``seconds`` at most: a part that hangs (a store or Redis that
    stopped answering) must not keep the process from stopping; what was left is logged."""
    try:
        async with asyncio.timeout(seconds):
            await closing
    except TimeoutError:
        log.warning("closing %s took more than %.1f s; stopping without it", part, seconds)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server app; its store opens (and unfinished tables resume) at startup."""
    config = config or ServerConfig()
    if config.redis is not None and config.node is None:
        from .cluster.node import node_name

        config = config.model_copy(update={"node": node_name()})

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # In cluster mode the store writes only to the tables this node owns (their fencing
        # numbers), and the lobby makes this node the owner of each table it creates.
        store = AsyncStore(
            Store(config.db, config.db_schema, config.db_timeout), config.db_timeout,
            fences=None if config.redis is None else {},
        )
        tables: Tables
        limits: LoginLimits
        queue: MatchQueue
        if config.redis is not None:  # everything in Redis: the "cluster" extra (redis)
            from .cluster.directing import Directing, NodeRounds
            from .cluster.login_limits import RedisLimits
            from .cluster.match_line import RedisQueue
            from .cluster.node import Node
            from .cluster.ownership import Ownership

            ownership = Ownership(config, store)
            lobby = Lobby(store, config, adopt=ownership.adopt)
            tables = node = Node(config, lobby, ownership)
            limits = RedisLimits(config.redis, config.redis_prefix, config.login_failures,
                                 config.login_window)
            # The 匹配 line's keys beside the cluster's.
            queue = RedisQueue(config.redis, f"{config.redis_prefix}match:")
        else:
            lobby = Lobby(store, config)
            tables = LocalTables(lobby)
            limits = MemoryLimits(config.login_failures, config.login_window)
            queue = MemoryQueue()
        app.state.config = config
        app.state.lobby = lobby
        app.state.store = store
        app.state.tables = tables
        app.state.creations = CreationLimits(config.create_per_minute, config.create_burst)
        app.state.accounts = Accounts(store.store)
        app.state.signups = CreationLimits(config.signup_per_minute, config.signup_burst)
        app.state.login_limits = limits
        table_invites: TableInvites
        if config.redis is not None:
            from .cluster.table_invites import RedisInvites

            table_invites = RedisInvites(config.redis, config.redis_prefix)
        else:
            table_invites = MemoryInvites()
        app.state.clubs = ClubState(
            Clubs(store.store, config.club_member_limit, config.clubs_per_account),
            ClubRecords(store.store), config, table_invites,
        )
        app.state.matchmaker = Matchmaker(
            queue, tables, config.match_wait_seconds, store
        )
        await tables.start()
        # Tournaments: run by one director (in a cluster, on the node holding its lease).
        app.state.tournaments = Tournaments(store.store)
        director: Director | Directing
        if config.redis is None:
            director = Director(app.state.tournaments, LobbyRounds(lobby), store)
        else:
            director = Directing(node, Director(app.state.tournaments, NodeRounds(node), store))
        app.state.director = director
        director.start()
        _tune_collector()
        try:
            yield
        finally:
            for part, close in (("the tournaments' director", director.close),
                                ("the 匹配 line", queue.close),
                                ("the login limits", limits.close),
                                ("the table invitations", table_invites.close),
                                ("the tables", tables.close)):
                await _closed(part, close(), config.shutdown_seconds)
            store.close()
            jobs: Reviews | None = getattr(app.state, "reviews", None)
            if jobs is not None:
                jobs.close()

    app = FastAPI(
        title="baofen",
        version=__version__,
        description="包分 and 包红五 game server: tables, seats, bots, timers, hand records.",
        lifespan=lifespan,
    )
    app.add_exception_handler(RequestValidationError, rest.invalid_request)
    app.add_exception_handler(StarletteHTTPException, rest.unreadable_body)
    app.include_router(rest.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(websocket.router)
    app.include_router(browser.router)
    app.include_router(reviews.router)
    app.include_router(quickmatch.router)
    app.include_router(puzzles.router)
    app.include_router(clubs.router)
    app.include_router(club_tables.router)
    app.include_router(club_invites.router)
    app.include_router(pages.router)
    app.include_router(challenge.router)
    app.include_router(tournaments.router)
    return app
