"""How uvicorn serves the app: connection limits, and a deadline for a connection's first request.

uvicorn closes an idle connection only after a response (``timeout_keep_alive``): a client that
connects and never finishes a request holds its socket for good, and a few hundred such
connections exhaust the server's file descriptors. :func:`uvicorn_options` gives uvicorn an HTTP
protocol that closes a connection whose first request (or WebSocket handshake) has not arrived
whole within ``handshake_timeout``, and caps concurrent connections (``limit_concurrency``:
more are answered 503). The client's address and scheme come from ``X-Forwarded-For`` and
``X-Forwarded-Proto`` only when the connection comes from a trusted proxy
(``forwarded_allow_ips``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..config import ServerConfig


def uvicorn_options(config: ServerConfig) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config`` that apply ``config``."""
    return {
        "http": _with_handshake_deadline(config.handshake_timeout),
        "limit_concurrency": config.max_connections,
        "timeout_keep_alive": min(5.0, config.handshake_timeout),
        "timeout_graceful_shutdown": config.shutdown_seconds,
        "ws_max_size": config.max_frame_bytes,
        # No permessage-deflate: the views after the first are patches of some hundred bytes,
        # which it shrank little for a quarter of the server's CPU per action and ~46 KiB of
        # memory per connection; nor inflating a client's frames.
        "ws_per_message_deflate": False,
        "proxy_headers": True,
        "forwarded_allow_ips": config.forwarded_allow_ips,
    }


def _with_handshake_deadline(timeout: float) -> type[asyncio.Protocol]:
    base: Any = AutoHTTPProtocol

    class HandshakeDeadline(base):  # type: ignore[misc]
        """uvicorn's HTTP protocol, closing a connection with no whole request in time."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._deadline = asyncio.get_running_loop().call_later(timeout, self._expired)

        def connection_lost(self, exc: Exception | None) -> None:
            self._deadline.cancel()
            super().connection_lost(exc)

        def _expired(self) -> None:
            transport = self.transport
            # A request came in whole (a cycle began), or the connection became a WebSocket.
            if self.cycle is not None or transport.get_protocol() is not self:
                return
            if not transport.is_closing():
                transport.close()

    return HandshakeDeadline
