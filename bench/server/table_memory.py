"""Memory a game server holds per table: with its player connected, and after the player left.

Starts ``baofen serve`` on a fresh SQLite database, reads its resident memory (RSS, from /proc),
opens K tables against the computer (和电脑玩: one player at South and three computer players,
dealt and waiting for South's bid) with a WebSocket each, reads the memory again, closes every
connection, waits for the server to let the players' seats go, and reads it a third time.

    PYTHONPATH=src python3 -m bench.server.table_memory -k 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench.common.serving import free_port, start_server


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def open_tables(base: str, k: int) -> list[ClientConnection]:
    """K tables against the computer, each with its player connected and shown the deal."""
    sockets = []
    async with httpx.AsyncClient(timeout=60) as client:
        for _ in range(k):
            answer = await client.post(f"{base}/api/quickplay", json={"variant": "baofen"})
            answer.raise_for_status()
            table = answer.json()
            ws = await connect(base.replace("http", "ws", 1) + table["websocket"])
            await ws.send(json.dumps({"type": "reclaim", "token": table["token"]}))
            while json.loads(await ws.recv())["type"] != "state":
                pass
            sockets.append(ws)
    return sockets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", type=int, default=200, help="tables")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to wait after the players left")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(f"sqlite:///{folder}/bench.db", port, {"BAOFEN_DROP_GRACE": "1"})
        try:
            idle, seated, left = asyncio.run(
                measure(f"http://127.0.0.1:{port}", server.pid, args.k, args.settle)
            )
        finally:
            server.terminate()
            server.wait(30)
    per_table = (seated - idle) / args.k
    print(f"K = {args.k} tables against the computer (包分), server RSS:")
    print(f"  before: {idle / 1024:.1f} MiB; with the players connected: {seated / 1024:.1f} MiB "
          f"({per_table:.0f} KiB a table)")
    print(f"  {args.settle:.0f} s after the players left: {left / 1024:.1f} MiB "
          f"({(left - idle) / args.k:.0f} KiB a table still held)")


async def measure(base: str, pid: int, k: int, settle: float) -> tuple[int, int, int]:
    """RSS (KiB) before, with K tables' players connected, and ``settle`` s after they left."""
    # A first table warms the server up (imports, caches): it is not counted.
    for ws in await open_tables(base, 1):
        await ws.close()
    await asyncio.sleep(1.0)
    idle = rss_kib(pid)
    sockets = await open_tables(base, k)
    await asyncio.sleep(1.0)
    seated = rss_kib(pid)
    for ws in sockets:
        await ws.close()
    await asyncio.sleep(settle)
    return idle, seated, rss_kib(pid)


if __name__ == "__main__":
    main()
