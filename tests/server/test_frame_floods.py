"""Frame floods: a client streaming permessage-deflate frames that inflate far past the message
limit is closed at the transport, and another table keeps answering at once; a client that keeps
sending refused frames is closed; a relaying node relays no refused frame."""

from __future__ import annotations

import asyncio
import json
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from baofen import RuleSet

from .cluster import running
from .databases import Database, database
from .harness import TIMEOUT, Client, ProcessServer, create_table, free_port

FLOOD_FRAME = "x" * ((1 << 20) - 1024)
"""Just under the old 1 MiB frame limit, about 1 KB on the wire once deflated."""
LONG_FRAME = "x" * 10_000
"""Over the 4,096-byte message limit, under the 16 KiB frame limit."""


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


def flood(url: str, stop: threading.Event, closes: list[int | None]) -> None:
    """Send deflated frames as fast as the server takes them, reconnecting whenever it closes
    the connection (recording each close code)."""

    async def attack() -> None:
        while not stop.is_set():
            try:
                async with connect(url, compression="deflate", max_size=None) as ws:
                    while not stop.is_set():
                        await ws.send(FLOOD_FRAME)
            except ConnectionClosed as closed:
                closes.append(None if closed.rcvd is None else closed.rcvd.code)
            except OSError:
                await asyncio.sleep(0.01)

    asyncio.run(attack())


PING_GAP_S = 0.01
"""Between two pings: a hundred a second, well under the connection's own rate limit (FAST:
1,000 a second after a burst), which back-to-back pings to a fast server would pass."""


def ping_p50(client: Client, count: int) -> float:
    """Median round trip of ``count`` pings, in milliseconds."""
    times = []
    for _ in range(count):
        time.sleep(PING_GAP_S)
        start = time.perf_counter()
        client.send(type="ping")
        answer = client.recv()
        while answer["type"] == "state":
            answer = client.recv()
        assert answer["type"] == "pong", answer
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def test_a_deflate_flood_is_closed_and_another_table_keeps_its_pace(tmp_path: Path) -> None:
    live = ProcessServer(f"sqlite:///{tmp_path / 'baofen.db'}", free_port())
    stop = threading.Event()
    closes: list[int | None] = []
    try:
        rules = RuleSet.baofen().to_dict()
        quiet, noisy = create_table(live.base, rules), create_table(live.base, rules)
        watcher = Client(live.base, quiet)
        watcher.send(type="watch")
        watcher.expect("state")
        url = live.base.replace("http", "ws", 1) + f"/ws/tables/{noisy}"
        attacker = threading.Thread(target=flood, args=(url, stop, closes), daemon=True)
        attacker.start()
        time.sleep(1.0)  # the flood under way
        p50 = ping_p50(watcher, 40)
        stop.set()
        attacker.join(30)
        print(f"ping p50 under the flood: {p50:.1f} ms; connections closed: {len(closes)}")
        # An oversized frame closes its connection (1009: message too big; or the connection is
        # reset, with the flood unread) before it is inflated further.
        assert closes and set(closes) <= {1009, None}
        assert p50 < 25.0, f"another table's ping p50 was {p50:.1f} ms under the flood"
    finally:
        stop.set()
        live.stop()


def refused_until_closed(url: str, frame: str) -> tuple[int, int | None]:
    """Send ``frame`` (deflated), each time reading its answer, until the server closes the
    connection: the frames answered by an error, and the close code."""

    async def attack() -> tuple[int, int | None]:
        refused = 0
        async with connect(url, compression="deflate", max_size=None) as ws:
            try:
                async with asyncio.timeout(4 * TIMEOUT):
                    while True:
                        await ws.send(frame)
                        answer = json.loads(await ws.recv())
                        assert answer["type"] == "error", answer
                        refused += 1
            except ConnectionClosed as closed:
                return refused, None if closed.rcvd is None else closed.rcvd.code
        raise AssertionError("never closed")

    return asyncio.run(attack())


def test_a_client_that_keeps_sending_refused_frames_is_closed(tmp_path: Path) -> None:
    live = ProcessServer(
        f"sqlite:///{tmp_path / 'baofen.db'}", free_port(), {"BAOFEN_RATE_PER_SECOND": "10"}
    )
    try:
        code = create_table(live.base, RuleSet.baofen().to_dict())
        url = live.base.replace("http", "ws", 1) + f"/ws/tables/{code}"
        refused, closed = refused_until_closed(url, LONG_FRAME)
        # Closed for a policy violation after two bursts of refusals (the limit's burst is 30).
        assert closed == 1008 and 55 <= refused <= 62, (refused, closed)
    finally:
        live.stop()


def test_the_relaying_node_relays_no_refused_frame(db: Database) -> None:
    """A flood through a node that does not own the table puts only refusals on Redis."""
    with running(db, 2, BAOFEN_RATE_PER_SECOND="10") as cluster:
        code = create_table(cluster.bases[0], RuleSet.baofen().to_dict())  # n0 owns it
        client = redis.Redis.from_url(cluster.redis_url)
        listener = client.pubsub()
        listener.subscribe(f"{cluster.prefix}node:n0")
        relayed = 0
        url = cluster.bases[1].replace("http", "ws", 1) + f"/ws/tables/{code}"
        try:
            refused, closed = refused_until_closed(url, LONG_FRAME)
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                message = listener.get_message(timeout=0.1)
                if message is not None and message["type"] == "message":
                    relayed += len(message["data"])
        finally:
            listener.close()
            client.close()
        print(f"{refused} frames of {len(LONG_FRAME)} bytes refused, {relayed} bytes relayed")
        assert closed == 1008
        assert relayed < 200 * 70  # refusals (about 150 bytes each), no frame
