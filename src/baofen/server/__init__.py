"""The multiplayer game server (FastAPI + WebSockets); see docs/protocol.md and
docs/architecture.md.

``create_app(ServerConfig(...))`` builds the app; ``baofen serve`` runs it with uvicorn. The
package itself loads only the configuration (the app, with FastAPI, when ``create_app`` is
first asked for). Its parts, by role:

- :mod:`.app`: the app, put together from the parts below;
- :mod:`.routes`: the REST, WebSocket and page routes;
- :mod:`.table`: one table (its log, seating, views and timers) and its driver;
- :mod:`.lobby`: the tables of this server, and where the routes find them;
- :mod:`.transport`: client connections, the checks of their frames, the broadcast of views;
- :mod:`.security`: tokens, sessions and the limits on requests and password tries;
- :mod:`.quickmatch`: the 匹配 line and the matchmaker;
- :mod:`.cluster`: several nodes on Redis.
"""

from __future__ import annotations

import warnings
from typing import Any

from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` (loaded when asked for), and ``ServerSettings``, the old name of
    :class:`ServerConfig` (deprecated)."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServerSettings":
        warnings.warn("baofen.server.ServerSettings is now ServerConfig", DeprecationWarning,
                      stacklevel=2)
        return ServerConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
