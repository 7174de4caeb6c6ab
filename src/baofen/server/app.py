"""The FastAPI application: REST lobby, WebSocket tables, and the store behind them."""

from __future__ import annotations

import gc
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..store import Store
from ..store.accounts import Accounts
from ..store.async_store import AsyncStore
from . import accounts, analysis, browser, players, quickmatch, rest, web, websocket
from .config import ServerSettings
from .directory import LocalTables, Tables
from .lobby import Lobby
from .login_limits import LoginLimits, MemoryLimits
from .match_queue import MatchQueue, MemoryQueue
from .security import CreationLimits

COLLECT_EVERY = 10_000
"""Net new objects between two collections of the youngest generation (Python's default: 700)."""


def _tune_collector() -> None:
    """Once the server has started: its objects so far (modules, models, resumed tables) are
    left out of the cyclic garbage collector's full passes (``gc.freeze``), and the youngest
    generation is collected after ``COLLECT_EVERY`` new objects. Every action makes and drops
    the views of four seats: with Python's defaults the collector took about a tenth of the
    server's CPU per action (docs/measurements.md). Only where the server runs on the main
    thread (``baofen serve``: the process is the server's); a server started in a thread of
    another program (the tests) leaves that program's collector as it is."""
    if threading.current_thread() is not threading.main_thread():
        return
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(COLLECT_EVERY, middle, old)


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The server app; its store opens (and unfinished tables resume) at startup."""
    settings = settings or ServerSettings()
    if settings.redis is not None and settings.node is None:
        from .cluster.node import node_name

        settings = settings.model_copy(update={"node": node_name()})

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # In cluster mode the store writes only to the tables this node owns (their fencing
        # numbers), and the lobby makes this node the owner of each table it creates.
        store = AsyncStore(
            Store(settings.db, settings.db_schema, settings.db_timeout), settings.db_timeout,
            fences=None if settings.redis is None else {},
        )
        tables: Tables
        limits: LoginLimits
        queue: MatchQueue
        if settings.redis is not None:  # everything in Redis: the "cluster" extra (redis)
            from .cluster.login_limits import RedisLimits
            from .cluster.match_line import RedisQueue
            from .cluster.node import Node
            from .cluster.ownership import Ownership

            ownership = Ownership(settings, store)
            lobby = Lobby(store, settings, adopt=ownership.adopt)
            tables = Node(settings, lobby, ownership)
            limits = RedisLimits(settings.redis, settings.redis_prefix, settings.login_failures,
                                 settings.login_window)
            # The 匹配 line's keys beside the cluster's.
            queue = RedisQueue(settings.redis, f"{settings.redis_prefix}match:")
        else:
            lobby = Lobby(store, settings)
            tables = LocalTables(lobby)
            limits = MemoryLimits(settings.login_failures, settings.login_window)
            queue = MemoryQueue()
        app.state.settings = settings
        app.state.lobby = lobby
        app.state.store = store
        app.state.tables = tables
        app.state.creations = CreationLimits(settings.create_per_minute, settings.create_burst)
        app.state.accounts = Accounts(store.store)
        app.state.signups = CreationLimits(settings.signup_per_minute, settings.signup_burst)
        app.state.login_limits = limits
        app.state.matchmaker = quickmatch.Matchmaker(
            queue, tables, settings.match_wait_seconds, store
        )
        await tables.start()
        _tune_collector()
        try:
            yield
        finally:
            await queue.close()
            await limits.close()
            await tables.close()
            store.close()
            reviews: analysis.Reviews | None = getattr(app.state, "reviews", None)
            if reviews is not None:
                reviews.close()

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
    app.include_router(analysis.router)
    app.include_router(quickmatch.router)
    app.include_router(web.router)
    return app
