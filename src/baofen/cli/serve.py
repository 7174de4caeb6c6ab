"""``baofen serve``: run the game server."""

from __future__ import annotations

import typer

from . import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, min=0, max=65535, help="port to listen on"),
    db: str = typer.Option(
        None, help="database URL (default: sqlite:///baofen.db, or $BAOFEN_DB)", show_default=False
    ),
) -> None:
    """Run the multiplayer game server (REST lobby and WebSocket tables)."""
    import uvicorn

    from ..server import ServerSettings, create_app

    settings = ServerSettings() if db is None else ServerSettings(db=db)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=settings.max_frame_bytes,
        log_level="info",
    )
