"""A client connected to one node, at a table another node owns: both ends of its relay.

On the client's node, a :class:`Relay` forwards every frame to the owner (``open``, ``msg``,
``close``) and hands back what the owner sends (``out``, ``end``). The client's node checks the
frames first (:class:`~..transport.gate.Gate`): of a frame it refuses, only the refusal is relayed
(``msg`` numbered 1), for the owner to answer in its turn; the owner never sees, and Redis never
carries, a frame it would refuse. On the owner, a
:class:`Session` is that client as the table sees it: a :class:`~..transport.connections.Connection`
whose socket (:class:`RemoteSocket`) publishes to the client's node, so the owner answers it
exactly as it answers its own clients (one place checks messages and redacts views).

Pub/sub may lose messages (those published to a subscriber whose connection has died before
Redis noticed), both ways. The owner numbers what it sends to each session and keeps the last
:data:`KEPT` of them; the relay hands them on strictly in order, and on a gap (or after its
node subscribed again) asks for the rest (``resync``). The relay numbers the client's frames
the same way (``msg``, ``refused``) and keeps the last :data:`KEPT`; the session hands them to
the table strictly in order, and on a gap (or after the owner's node subscribed again) asks for
the rest (``again``): a frame lost on its way to the owner (a 继续 after a cut) is not lost for
good. When either end no longer has what is asked for, or the owner no longer serves the
session, the session ends and the client reconnects (``end`` 1012): at most a reconnection,
which is a resync.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, Protocol

from starlette.websockets import WebSocketState

from ...store.accounts import Account
from ..config import ServerConfig
from ..routes.websocket import converse
from ..table.table import Table
from ..transport.connections import Connection, Frame, Receive, Refusal
from .bus import Envelope

KEPT = 512
"""Messages an owner keeps per session, to send again after a loss."""

CLOSE_MOVED = 1012
"""Close code telling a client to reconnect (the table moved, or its relay broke)."""

RESYNC_SECONDS = 0.5
"""A relay missing messages asks again after this long."""


class RelayingNode(Protocol):
    """What relays and sessions need of their node (:class:`.node.Node`)."""

    id: str
    config: ServerConfig
    relays: dict[str, Relay]
    sessions: dict[str, Session]

    async def send(self, node: str, envelope: Envelope) -> bool:
        """Publish, trying again while nobody listens: False when nobody ever did."""

    async def post(self, node: str, envelope: Envelope) -> None:
        """Publish once."""

    def post_soon(self, node: str, envelope: Envelope) -> None:
        """Publish once, in the background."""

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run in the background."""


class Relay:
    """This node's client of a table that ``owner`` owns."""

    def __init__(self, node: RelayingNode, code: str, owner: str, connection: Connection,
                 session: str) -> None:
        self.node = node
        self.code = code
        self.owner = owner
        self.connection = connection
        self.session = session
        self.delivered = 0
        """Sequence number of the last message handed to the client."""
        self.seen = 0
        """Highest sequence number received (above :attr:`delivered`: some are missing)."""
        self.asked = 0.0
        """When the last ``resync`` was sent (``time.monotonic()``)."""
        self.sent: deque[Envelope] = deque(maxlen=KEPT)
        """The client's last frames forwarded, numbered from 1, to send again when asked."""

    def envelope(self, op: str, number: int = 0, body: str = "") -> Envelope:
        """A message of this relay to the owner."""
        return Envelope(op, self.session, self.node.id, number, self.code, body)

    async def relay(self, receive: Receive) -> None:
        """Forward the client's frames until it disconnects, or the owner ends the session."""
        self.node.relays[self.session] = self
        try:
            # The owner knows the client only through us: its address (for the club tables'
            # address rule) and the account signed in on our handshake.
            account = self.connection.account
            client: dict[str, object] = {"address": self.connection.address}
            if account is not None:
                client.update(id=account.id, username=account.username,
                              created=account.created.isoformat(),
                              session=self.connection.session)
            opened = self.envelope("open", body=json.dumps(client))
            if not await self.node.send(self.owner, opened):
                self.connection.close(CLOSE_MOVED)
                return
            while not self.connection.closing:
                frame = await receive()
                if frame is None:
                    break
                number = self.sent[-1].number + 1 if self.sent else 1
                if isinstance(frame, Refusal):
                    message = self.envelope("refused", number, frame.answer)
                else:
                    message = self.envelope("msg", number, frame)
                self.sent.append(message)
                if not await self.node.send(self.owner, message):
                    self.connection.close(CLOSE_MOVED)
        finally:
            del self.node.relays[self.session]
            await self.node.post(self.owner, self.envelope("close"))

    def take(self, envelope: Envelope) -> None:
        """A message from the owner: hand it on in order, or ask for what is missing."""
        if envelope.op == "end":
            self.connection.close(envelope.number)
            return
        if envelope.op == "again":
            self.node.spawn(self._again(envelope.number))
            return
        self.seen = max(self.seen, envelope.number)
        if envelope.number == self.delivered + 1:
            self.delivered += 1
            self.connection.send(envelope.body)
        elif envelope.number > self.delivered + 1:
            self.resync(again=False)

    async def _again(self, after: int) -> None:
        """Send the owner again the client's frames after number ``after`` (the session ends
        when some are no longer kept)."""
        sent = list(self.sent)
        if sent and sent[0].number > after + 1:
            self.connection.close(CLOSE_MOVED)
            return
        for message in sent:
            if message.number > after:
                await self.node.post(self.owner, message)

    @property
    def missing(self) -> bool:
        """True while messages after :attr:`delivered` were seen but not received."""
        return self.seen > self.delivered

    def resync(self, again: bool = True) -> None:
        """Ask the owner for every message after :attr:`delivered` (once in a while only,
        unless ``again``: after the bus was lost, when nothing says what is missing)."""
        now = time.monotonic()
        if again or now - self.asked >= RESYNC_SECONDS:
            self.asked = now
            # Sent until the owner listens: after Redis restarted, it may subscribe after us.
            self.node.spawn(self.node.send(self.owner, self.envelope("resync", self.delivered)))


class RemoteSocket:
    """The socket of a :class:`Session`: it publishes to the client's node, numbered."""

    def __init__(self, node: RelayingNode, session: str, origin: str, code: str) -> None:
        self.node = node
        self.session = session
        self.origin = origin
        self.code = code
        self.client_state = WebSocketState.CONNECTED
        self.number = 0
        self.kept: deque[tuple[int, str]] = deque(maxlen=KEPT)
        self.ended = asyncio.Event()

    def _out(self, number: int, text: str) -> Envelope:
        return Envelope("out", self.session, self.node.id, number, self.code, text)

    async def send_text(self, data: str) -> None:
        """Send one message (a lost one is sent again when the relay asks)."""
        self.number += 1
        self.kept.append((self.number, data))
        await self.node.post(self.origin, self._out(self.number, data))

    async def close(self, code: int = 1000) -> None:
        """End the session: the relay closes its client with ``code``."""
        self.client_state = WebSocketState.DISCONNECTED
        self.ended.set()
        await self.node.post(
            self.origin, Envelope("end", self.session, self.node.id, code, self.code)
        )

    async def resend(self, after: int) -> bool:
        """Send again every message after number ``after``; False when some are not kept."""
        if after < self.number and (not self.kept or self.kept[0][0] > after + 1):
            return False
        for number, text in list(self.kept):
            if number > after:
                await self.node.post(self.origin, self._out(number, text))
        return True


class Session:
    """Another node's client at a table this node owns."""

    def __init__(self, node: RelayingNode, envelope: Envelope, table: Table) -> None:
        config = node.config
        self.node = node
        self.table = table
        self.origin = envelope.sender
        self.socket = RemoteSocket(node, envelope.session, envelope.sender, table.code)
        self.connection = Connection(self.socket, config.send_queue)
        client = json.loads(envelope.body) if envelope.body else {}
        self.connection.address = client.get("address")
        if "id" in client:  # the account the client signed in with on its node
            self.connection.account = Account(
                client["id"], client["username"], datetime.fromisoformat(client["created"]))
            self.connection.session = client["session"]
        self.inbox: asyncio.Queue[Frame | None] = asyncio.Queue()
        self.received = 0
        """Number of the client's last frame handed to the table (they come numbered)."""
        self.seen = 0
        """Highest number of the client's frames received (above :attr:`received`: some are
        missing)."""
        self.asked = 0.0
        """When the client's node was last asked for frames again (``time.monotonic()``)."""

    def take(self, envelope: Envelope) -> None:
        """A message from the client's node."""
        if envelope.op in ("msg", "refused"):
            self.seen = max(self.seen, envelope.number)
            if envelope.number == self.received + 1:
                self.received += 1
                body = envelope.body
                self.inbox.put_nowait(Refusal(body) if envelope.op == "refused" else body)
            elif envelope.number > self.received + 1:  # some were lost: ask for them again
                self.again(force=False)
            # (one already handed on, sent again, is dropped)
        elif envelope.op == "close":
            self.inbox.put_nowait(None)
        elif envelope.op == "resync":
            self.node.spawn(self._resync(envelope.number))

    @property
    def missing(self) -> bool:
        """True while frames after :attr:`received` were seen but not received."""
        return self.seen > self.received

    def again(self, force: bool = True) -> None:
        """Ask the client's node for every frame after :attr:`received` (once in a while only,
        unless ``force``: after the bus was lost, when nothing says what is missing)."""
        now = time.monotonic()
        if force or now - self.asked >= RESYNC_SECONDS:
            self.asked = now
            self.node.post_soon(self.origin, Envelope(
                "again", self.socket.session, self.node.id, self.received, self.table.code))

    async def _resync(self, after: int) -> None:
        if not await self.socket.resend(after):
            self.connection.close(CLOSE_MOVED)

    async def run(self) -> None:
        """Answer the client's frames until it leaves or the session ends."""
        writer = asyncio.get_running_loop().create_task(self.connection.write())
        conversation = asyncio.get_running_loop().create_task(
            converse(self.connection, self.table, self.inbox.get)
        )
        ended = asyncio.get_running_loop().create_task(self.socket.ended.wait())
        try:
            await asyncio.wait([conversation, ended], return_when=asyncio.FIRST_COMPLETED)
            if not conversation.done():
                self.inbox.put_nowait(None)  # the table ended the session: leave it
            await conversation
        finally:
            ended.cancel()
            self.connection.close()
            await writer
            self.node.sessions.pop(self.socket.session, None)
