"""The multiplayer game server (FastAPI + WebSockets); see docs/protocol.md.

``baofen.server.app.create_app(ServerSettings(...))`` builds the app; ``baofen serve`` runs it
with uvicorn. The package itself loads only the settings, so that the wire models
(:mod:`baofen.wire`) can use :mod:`.protocol` without loading the app.
"""

from .config import ServerSettings

__all__ = ["ServerSettings"]
