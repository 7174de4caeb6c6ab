"""Who is signed in: the session cookie of a request or WebSocket handshake, and the store's
account calls made off the event loop (docs/protocol.md, "Accounts")."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Annotated, TypeVar
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, status
from starlette.requests import HTTPConnection

from ...store.accounts import Account, Accounts, NameTaken
from ..config import ServerConfig
from .tokens import token_hash

log = logging.getLogger(__name__)

T = TypeVar("T")

COOKIE = "baofen_session"
"""The session cookie's name."""


def unavailable() -> HTTPException:
    """The answer when the store does not answer."""
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE, "the database is not answering: try again"
    )


def accounts_of(connection: HTTPConnection) -> Accounts:
    """The app's accounts, for a request or a websocket."""
    accounts: Accounts = connection.app.state.accounts
    return accounts


async def run(connection: HTTPConnection, call: Callable[..., T], *args: object) -> T:
    """``call(*args)`` on the store in a worker thread; 503 when the store fails or is slow."""
    config: ServerConfig = connection.app.state.config
    try:
        return await asyncio.wait_for(asyncio.to_thread(call, *args), config.db_timeout)
    except NameTaken:
        raise
    except Exception as error:
        log.warning("the store failed an account request: %r", type(error).__name__)
        raise unavailable() from None


def same_origin(connection: HTTPConnection) -> bool:
    """False for a browser's request from a page of another site (its ``Origin`` is not this
    host): a WebSocket handshake is not covered by SameSite, so such a page must not act with the
    player's session (cross-site WebSocket hijacking). Clients that send no ``Origin`` (not a
    browser) are not affected."""
    origin = connection.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == connection.headers.get("host")


async def session_account(connection: HTTPConnection) -> Account | None:
    """The account signed in on this request or WebSocket handshake, or None (also for a
    handshake from another site's page)."""
    token = connection.cookies.get(COOKIE)
    if not token or len(token) > 128 or not same_origin(connection):
        return None
    return await run(connection, accounts_of(connection).session, token_hash(token))


async def signed_in(request: Request) -> Account:
    """The signed-in account; 401 when there is none."""
    account = await session_account(request)
    if account is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "not signed in")
    return account


SignedIn = Annotated[Account, Depends(signed_in)]
