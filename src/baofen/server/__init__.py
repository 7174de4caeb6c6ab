"""The multiplayer game server (FastAPI + WebSockets); see docs/protocol.md.

``create_app(ServerSettings(...))`` builds the app; ``baofen serve`` runs it with uvicorn.
"""

from .app import create_app
from .config import ServerSettings

__all__ = ["ServerSettings", "create_app"]
