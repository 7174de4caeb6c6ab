"""The bus between cluster nodes, against a link to Redis that stays open but goes silent
(after a lossy spell Redis may wait tens of seconds before it sends its unacknowledged data
again, while this side's keepalives are answered): the listener notices and subscribes again
on a new connection, and what is published to it then arrives."""

from __future__ import annotations

import asyncio
import secrets

from baofen.server.cluster.bus import STALLED_SECONDS, Bus, Envelope, connect

from .cluster import SHARED_REDIS
from .fakes import clear_redis, run


class FreezingProxy:
    """A TCP proxy to Redis whose connections can be frozen: from then on nothing Redis sends
    is handed on, and the connection stays open."""

    def __init__(self) -> None:
        self.frozen: list[asyncio.Event] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/0"

    def freeze(self) -> None:
        """Freeze every connection open now."""
        for frozen in self.frozen:
            frozen.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", 6379)
        frozen = asyncio.Event()
        self.frozen.append(frozen)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                       freezes: bool) -> None:
            while data := await source.read(65536):
                if freezes and frozen.is_set():
                    await asyncio.Event().wait()  # silent, and open
                sink.write(data)
                await sink.drain()

        await asyncio.gather(pipe(reader, upstream_writer, False),
                             pipe(upstream_reader, writer, True), return_exceptions=True)
        writer.close()
        upstream_writer.close()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def test_a_listener_whose_link_goes_silent_subscribes_again() -> None:
    async def test() -> None:
        prefix = f"baofen-test-{secrets.token_hex(4)}:"
        proxy = FreezingProxy()
        url = await proxy.start()
        heard: list[Envelope] = []
        again = asyncio.Event()
        publisher = connect(SHARED_REDIS)
        bus = Bus(publisher, url, prefix, "n0", heard.append, again.set)
        try:
            await bus.start()
            await bus.post("n0", Envelope("msg", "s", "n1", 1))
            await asyncio.sleep(0.3)
            assert [e.number for e in heard] == [1]
            proxy.freeze()
            await bus.post("n0", Envelope("msg", "s", "n1", 2))  # stuck in the frozen link
            await asyncio.wait_for(again.wait(), STALLED_SECONDS + 3)
            await bus.post("n0", Envelope("msg", "s", "n1", 3))
            for _ in range(50):
                if len(heard) == 2:
                    break
                await asyncio.sleep(0.05)
            # The frozen message is gone with its connection (the relays ask for it again
            # when told the node subscribed again); the next one arrives.
            assert [e.number for e in heard] == [1, 3]
        finally:
            await bus.close()
            await publisher.aclose()
            proxy.close()
            clear_redis(prefix)

    run(test)
