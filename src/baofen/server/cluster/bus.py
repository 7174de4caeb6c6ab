"""Messages between nodes over Redis pub/sub: every node listens on a channel of its own.

A message (:class:`Envelope`) is one line of header and the client's or server's frame as is,
so a relayed frame is never encoded twice. Pub/sub delivers at most once: a message published
while its receiver is not subscribed (a dead node, a broken connection, a Redis restart) is
gone. The bus tells who listens (:meth:`Bus.post` returns the number of receivers,
:meth:`Bus.listening`), and tells its node when it subscribed again after losing its
connection, which then asks the owners to send again what it may have missed (see
:mod:`.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import BlockingConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as LinkError
from redis.exceptions import RedisError
from redis.retry import Retry

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.2
"""Pause before subscribing again after the connection to Redis broke."""

POOL = 32
"""Connections to Redis a node publishes and reads over."""

POOL_WAIT = 5.0
"""Seconds a command waits for one of them before it fails."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """One message between nodes, about one client connection (``session``)."""

    op: str
    """``open``, ``msg``, ``refused``, ``close``, ``resync`` (to the owner); ``out``, ``end``,
    ``again`` (back); ``forget`` (to every owner: an account was deleted); ``attend`` (from the
    tournament director to a table's owner); ``unwatch`` (to every owner: a member removed from
    a club, whose table codes are the body)."""
    session: str
    sender: str
    """The node that sent it."""
    number: int = 0
    """``out``, ``msg``: the message's sequence number (a ``refused`` frame's too: its body is
    the error answering it); ``resync``, ``again``: the last one received; ``end``: the
    WebSocket close code; ``forget``: the deleted account's id; ``attend``: 1 while the
    table's round runs, 0 once it is over; ``unwatch``: the removed member's."""
    table: str = "-"
    body: str = ""

    def encode(self) -> str:
        """The message as published."""
        return f"{self.op} {self.session} {self.sender} {self.number} {self.table}\n{self.body}"

    @classmethod
    def decode(cls, data: bytes) -> Envelope:
        """The message published as ``data`` (ValueError when it is not one)."""
        header, _, body = data.decode().partition("\n")
        op, session, sender, number, table = header.split(" ")
        return cls(op, session, sender, int(number), table, body)


COMMAND_TIMEOUT = 2.0
"""Seconds a Redis command waits for its answer: a link cut mid-command then fails it at once
after the heal, instead of after TCP's next retransmission (up to tens of seconds)."""

KEEPALIVE = {
    socket.TCP_KEEPIDLE: 1, socket.TCP_KEEPINTVL: 1, socket.TCP_KEEPCNT: 3,
    socket.TCP_USER_TIMEOUT: round(COMMAND_TIMEOUT * 1000),
}
"""A connection to a silent Redis ends within seconds (keepalives, unacknowledged data)."""


QUIET_SECONDS = 1.0
"""A listener that heard nothing for this long asks Redis for a pong."""

STALLED_SECONDS = QUIET_SECONDS + COMMAND_TIMEOUT
"""A listener that heard nothing, not even its pong, for this long subscribes again on a new
connection. After a lossy spell Redis may wait tens of seconds before it sends a connection's
unacknowledged data again (TCP's backoff), while the link looks alive from this side (its
keepalives are answered): every message to this node would wait as long."""


def connect(url: str) -> Redis:
    """A node's Redis client: commands wait their turn for one of a few connections (many
    clients publish at once), and their answers for :data:`COMMAND_TIMEOUT`."""
    return Redis(connection_pool=BlockingConnectionPool.from_url(
        url, max_connections=POOL, timeout=POOL_WAIT, socket_timeout=COMMAND_TIMEOUT,
        socket_connect_timeout=COMMAND_TIMEOUT, socket_keepalive=True,
        socket_keepalive_options=KEEPALIVE,
    ))


class Bus:
    """This node's end of the bus: publish to a node (over ``redis``, the node's client, which
    its owner closes), listen on its own channel (over a connection of its own)."""

    def __init__(
        self, redis: Redis, url: str, prefix: str, node: str,
        handle: Callable[[Envelope], None], resubscribed: Callable[[], None],
    ) -> None:
        self.redis = redis
        # The listener gets no silent reconnection: it must know when it may have missed some.
        self._listener: Redis = Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=COMMAND_TIMEOUT,
            socket_keepalive=True, socket_keepalive_options=KEEPALIVE,
        )
        self.prefix = prefix
        self.node = node
        self._handle = handle
        self._resubscribed = resubscribed
        self.subscribed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def channel(self, node: str) -> str:
        """The channel ``node`` listens on."""
        return f"{self.prefix}node:{node}"

    async def start(self) -> None:
        """Subscribe (waits for it, so the node is reachable once it serves)."""
        self._task = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(self.subscribed.wait(), 10)

    async def close(self) -> None:
        """Stop listening and close the listener's connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._listener.aclose()

    async def post(self, node: str, envelope: Envelope) -> int:
        """Publish to ``node``: how many listened (0: the node is gone, or not subscribed
        now). Raises :class:`RedisError` when Redis does not answer."""
        receivers: int = await self.redis.publish(self.channel(node), envelope.encode())
        return receivers

    async def send(self, node: str, envelope: Envelope, patience: float) -> bool:
        """Publish to ``node``, trying again while nobody listens (it is subscribing again,
        or Redis restarts) for up to ``patience`` seconds: False when it never listened."""
        deadline = time.monotonic() + patience
        while True:
            with contextlib.suppress(RedisError, OSError):
                if await self.post(node, envelope):
                    return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)

    async def tell_all(self, envelope: Envelope) -> None:
        """Publish ``envelope`` once to every other live node (every one, not only the owners
        in the registry: a table taken a moment ago is not listed there yet)."""
        try:
            for node in await self.nodes() - {envelope.sender}:
                await self.post(node, envelope)
        except (RedisError, OSError):
            log.warning("could not tell the other nodes (%s)", envelope.op)

    async def listening(self, nodes: list[str]) -> set[str]:
        """Those of ``nodes`` subscribed to their channels now."""
        if not nodes:
            return set()
        counts = await self.redis.pubsub_numsub(*(self.channel(n) for n in nodes))
        live = {_text(channel) for channel, count in counts if count}
        return {node for node in nodes if self.channel(node) in live}

    async def nodes(self) -> set[str]:
        """Every node subscribed to its channel now (this one too)."""
        head = self.channel("")
        pattern = "".join(f"[{c}]" if c in "*?[]\\" else c for c in head) + "*"
        return {_text(c).removeprefix(head) for c in await self.redis.pubsub_channels(pattern)}

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node))
                self.subscribed.set()
                if not first:
                    log.info("node %s: subscribed again", self.node)
                    self._resubscribed()
                first = False
                heard = asked = time.monotonic()
                while True:
                    message = await pubsub.get_message(timeout=QUIET_SECONDS / 2)
                    now = time.monotonic()
                    if message is not None:
                        heard = now
                        if message["type"] == "message":
                            self._deliver(message["data"])
                    elif now - heard > STALLED_SECONDS:
                        raise LinkError(
                            f"Redis sent nothing, not even a pong, for {now - heard:.1f} s")
                    elif now - heard > QUIET_SECONDS and now - asked > QUIET_SECONDS:
                        asked = now
                        await pubsub.ping()
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                log.warning("node %s: lost the bus (%s); subscribing again", self.node, error)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8

    def _deliver(self, data: bytes) -> None:
        try:
            envelope = Envelope.decode(data)
        except ValueError:
            log.error("node %s: not a bus message: %r", self.node, data[:200])
            return
        try:
            self._handle(envelope)
        except Exception:  # a bug must not stop the bus
            log.exception("node %s: failed on a bus message", self.node)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
