"""Client connections: who a client is at its table, and its outgoing queue.

Every connection has its own outgoing queue drained by one writer task, so a broadcast
(:mod:`.broadcast`) never waits on a slow client; a client whose queue overflows is
disconnected (it can reconnect and ``sync``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from starlette.websockets import WebSocketState

from ...store.accounts import Account

log = logging.getLogger(__name__)

Role = Literal["new", "player", "spectator"]


@dataclass(frozen=True)
class Refusal:
    """A frame refused unread by the :class:`~.gate.Gate`: the error answering it."""

    answer: str


Frame = str | Refusal
"""A text frame that passed the :class:`~.gate.Gate`, or the refusal of one that did not."""

Receive = Callable[[], Awaitable[Frame | None]]
"""The next frame of a connection, None at its end."""


class Socket(Protocol):
    """Where a connection's messages go: a WebSocket, or (cluster mode) the node that relays
    them to its client."""

    client_state: WebSocketState

    async def send_text(self, data: str) -> None:
        """Send one message."""

    async def close(self, code: int = 1000) -> None:
        """Close, with a WebSocket close code."""


class Connection:
    """One WebSocket client: who it is at its table, and its queue."""

    def __init__(self, websocket: Socket, queue_size: int) -> None:
        self.websocket = websocket
        self.role: Role = "new"
        self.seat: int | None = None
        """The seat this connection plays (a ``player`` only)."""
        self.account: Account | None = None
        """The account signed in on the WebSocket handshake (None: a guest)."""
        self.address: str | None = None
        """The client's address (behind the trusted proxies; relayed by another node: as that node
        saw it)."""
        self.session: str | None = None
        """The hash of that sign-in's session, looked up again before the connection takes a
        seat: it may have ended since (signed out, password changed, account deleted)."""
        self.view: tuple[int, int | None] | None = None
        """The last view of the table sent to this connection: its number and whose view it
        was (a seat; ``None``: the spectators'). A patch applies only to a view of the same
        audience: views of different seats share their numbers."""
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(queue_size)
        self._closing = False
        self.close_code = 1000

    @property
    def view_seat(self) -> int | None:
        """The seat whose view this connection gets (``None``: a spectator's)."""
        return self.seat if self.role == "player" else None

    def send(self, text: str) -> None:
        """Queue one message; a client too slow to keep up is disconnected."""
        if self._closing:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("disconnecting a client that does not read its messages")
            self.close(1008)

    def close(self, code: int = 1000) -> None:
        """Close after the messages already queued are sent."""
        if self._closing:
            return
        self._closing = True
        self.close_code = code
        if self._queue.full():
            # No room for the closing marker: drop what is queued, the client is going anyway.
            while not self._queue.empty():
                self._queue.get_nowait()
        self._queue.put_nowait(None)

    @property
    def closing(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closing

    async def write(self) -> None:
        """Send queued messages until :meth:`close`; run as the connection's writer task."""
        websocket = self.websocket
        try:
            while (text := await self._queue.get()) is not None:
                await websocket.send_text(text)
            if websocket.client_state == WebSocketState.CONNECTED:
                await websocket.close(self.close_code)
        except Exception:  # the client went away mid-send: the reader sees the disconnect
            self._closing = True
