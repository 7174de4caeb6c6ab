"""The partition run's clients: a delaying TCP proxy between them and the nodes (no
``tc netem`` on these kernels), and scripted players that log every view they are shown
and every action acknowledged, and find another node when their link dies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from baofen import RuleSet

from .cluster import Unique
from .harness import Client, to_act

# -- the clients' way in: a delaying proxy ---------------------------------------------------


class Proxy:
    """TCP proxies in this process from the clients' address to each node, adding
    :attr:`delay` seconds each way (no ``tc netem`` on these kernels)."""

    def __init__(self, listen: str, targets: list[str], port: int) -> None:
        self.delay = 0.0
        self.loop = asyncio.new_event_loop()
        self.bases: list[str] = []
        self._servers: list[asyncio.Server] = []
        thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        thread.start()
        for number, target in enumerate(targets):
            self.bases.append(f"http://{listen}:{port + number}")
            asyncio.run_coroutine_threadsafe(
                self._listen(listen, port + number, target), self.loop
            ).result(10)

    async def _listen(self, host: str, port: int, target: str) -> None:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                upstream = await asyncio.wait_for(asyncio.open_connection(target, 8000), 3)
            except (OSError, TimeoutError):
                writer.close()
                return
            await asyncio.gather(self._pipe(reader, upstream[1]), self._pipe(upstream[0], writer),
                                 return_exceptions=True)

        self._servers.append(await asyncio.start_server(serve, host, port))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if self.delay:
                    await asyncio.sleep(self.delay)
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    def close(self) -> None:
        for server in self._servers:
            self.loop.call_soon_threadsafe(server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


# -- the players -----------------------------------------------------------------------------


class Player(threading.Thread):
    """A seated player making random legal moves, who reconnects through the next node with
    its seat token whenever its connection ends (its pings go unanswered within seconds). It
    logs every view with the time it came, and every acknowledged action."""

    def __init__(self, bases: list[str], code: str, seat: int, rules: RuleSet,
                 client: Client, node: int, think: float) -> None:
        super().__init__(daemon=True)
        self.think = think
        self.bases, self.code, self.node = bases, code, node
        self.seated = Unique(client, rules, seed=seat)
        self.views: list[tuple[float, dict[str, Any]]] = [
            (time.monotonic(), s) for s in client.received if s["type"] == "state"
        ]
        self.errors: dict[str, int] = {}
        self.late: dict[int, dict[str, Any]] = {}
        """Actions given up on (their answer lost), by id: an ack may still come."""
        self.stop = threading.Event()
        self.sent_at = 0.0
        self.connections: list[tuple[float, str]] = []
        """When its connection ended, and each try to connect again (through which node, and
        how it ended), for the checker's account of a table that did not move."""

    @property
    def client(self) -> Client:
        return self.seated.client

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.poll()
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
                self.reconnect()
            except Exception as error:  # counted, and the player goes on from a new view
                self.failed(error)
                self.reconnect()

    def failed(self, error: Exception) -> None:
        """Count a failure of the client itself (a message it could not take), naming it in
        the connections' log the checker shows for a table that did not move."""
        name = f"client failure: {type(error).__name__}"
        self.errors[name] = self.errors.get(name, 0) + 1
        self.connections.append((time.monotonic(), f"{name} {str(error)[:200]}"))

    def poll(self) -> None:
        try:
            message = self.client.recv(0.05)
        except TimeoutError:
            message = None
        if message is not None:
            self.take(message)
        if self.think and not self.seated._sent and to_act(self.client.state) == self.client.seat:
            time.sleep(self.think)
        self.seated._maybe_act()
        if self.seated._sent:
            self.sent_at = self.sent_at or time.monotonic()
            if time.monotonic() - self.sent_at > 3.0:  # its answer was lost: look again
                self.forget()
                self.client.send(type="sync")
        else:
            self.sent_at = 0.0

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            self.views.append((time.monotonic(), message))
        elif kind == "error":
            self.errors[message["code"]] = self.errors.get(message["code"], 0) + 1
            if message.get("id") in self.seated._sent:
                self.forget()
            return
        elif kind == "ack" and message["id"] in self.late:
            self.seated.acked[message["version"]] = self.late.pop(message["id"])
            return
        self.seated._take(message)

    def forget(self) -> None:
        self.late.update(self.seated._sent)
        self.seated._sent.clear()
        self.seated._acted_at = -1
        self.sent_at = 0.0

    def reconnect(self) -> None:
        token, seat = self.client.token, self.client.seat
        with contextlib.suppress(Exception):
            self.client.close()
        self.forget()
        self.connections.append((time.monotonic(), "lost"))
        while not self.stop.is_set():
            self.node = (self.node + 1) % len(self.bases)
            try:
                client = connect(self.bases[self.node], self.code)
                client.send(type="reclaim", token=token)
                joined = client.expect("joined", timeout=4)
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake) as error:
                self.connections.append((time.monotonic(),
                                         f"n{self.node} {type(error).__name__}"))
                time.sleep(0.2)
                continue
            except Exception as error:  # a player that stops trying would leave its table
                self.failed(error)
                time.sleep(0.2)
                continue
            self.connections.append((time.monotonic(), f"n{self.node} joined"))
            assert joined["seat"] == seat
            client.token = token
            self.seated.client = client
            self.views.extend((time.monotonic(), s) for s in client.received
                              if s["type"] == "state")
            return


QUIET = logging.getLogger("partitions.websockets")
QUIET.setLevel(logging.CRITICAL)  # a ping unanswered during a partition is expected


def connect(base: str, code: str) -> Client:
    """A client that notices a dead link within seconds (pings every second)."""
    return Client(base, code, ping_interval=1.0, ping_timeout=3.0, open_timeout=3.0,
                  close_timeout=1.0, logger=QUIET)


