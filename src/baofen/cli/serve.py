"""``baofen serve``: run the game server."""

from __future__ import annotations

from typing import Annotated

import typer

from .root import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="database URL (default: sqlite:///baofen.db, or $BAOFEN_DB)"),
    ] = None,
) -> None:
    """Run the multiplayer game server (REST lobby and WebSocket tables)."""
    import uvicorn

    from ..server import ServerSettings
    from ..server.app import create_app
    from ..server.transport import uvicorn_options

    settings = ServerSettings() if db is None else ServerSettings(db=db)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        **uvicorn_options(settings),
        log_level="info",
    )
