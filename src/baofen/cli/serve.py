"""``baofen serve``: run the game server."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from .command import Command, CommandError
from .database import open_store, server_settings
from .options import DbOption
from .root import app


def _check_address(host: str, port: int) -> None:
    """Fail now, in one line, when the server could not listen on ``host:port``."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        # Bound and released at once; the server binds it again (SO_REUSEADDR) right after.
        socket.create_server((host, port), family=family).close()
    except OSError as error:
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _check_redis(url: str) -> None:
    """Fail now, in one line, when cluster mode could not use Redis at ``url``."""
    try:
        from redis import Redis, RedisError
    except ImportError:
        raise CommandError(
            "cluster mode needs the redis package: pip install 'baofen[cluster]'"
        ) from None
    try:
        client = Redis.from_url(url, socket_connect_timeout=3)
    except ValueError as error:
        raise CommandError(f"{url!r} is not a Redis URL: {error}") from None
    try:
        client.ping()
    except RedisError as error:
        raise CommandError(f"cannot reach Redis at {url}: {error}") from None
    finally:
        client.close()


@app.command(cls=Command)
def serve(
    host: Annotated[str, typer.Option(metavar="HOST", help="address to listen on")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, metavar="PORT", help="port to listen on")
    ] = 8000,
    db: DbOption = None,
    redis: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Redis URL (redis://HOST:6379/N): run as one node of a cluster sharing the "
            "database (PostgreSQL); default: $BAOFEN_REDIS, else a single server",
        ),
    ] = None,
) -> None:
    """Run the multiplayer game server (REST lobby and WebSocket tables)."""
    import uvicorn

    from ..server.app import create_app
    from ..server.transport import uvicorn_options

    settings = server_settings(db)
    if redis is not None:
        settings = settings.model_copy(update={"redis": redis})
    open_store(settings).close()  # a database the server cannot use is reported before it starts
    if settings.redis is not None:
        _check_redis(settings.redis)
    _check_address(host, port)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        **uvicorn_options(settings),
        log_level="info",
    )
