"""Reads of a table's information (``GET /api/tables/{code}``) in a cluster of two nodes: at
the table's own node, and at the other node.

Two ``baofen serve --redis`` nodes on loopback (one PostgreSQL schema and one Redis key prefix
of their own). ``--tables`` tables are created on node 0 and played by computer players (one
seat in 托管 held by a connection of this script, the others computer players, ``--bot-delay``
seconds a move): their versions change all the time, as a busy table's do. Then, for each
scenario, ``--readers`` clients read the tables' information as fast as they are answered for
``--seconds``, while a pinger asks the reading node's ``/health`` every 0.1 s.

Reported per scenario: answers/s, the answers' p50 and p99 (ms), the reading node's CPU
milliseconds per answer (the load's own share aside: the node's CPU while the tables play and
nobody reads is measured first and taken off), and its ``/health`` p50 and p95 (ms) under the
reads. The CPU figure is the one to compare on a shared machine: the rates follow the load.

    PYTHONPATH=src python3 -m bench.server.table_reads
    PYTHONPATH=src python3 -m bench.server.table_reads --tree /path/to/an/older/checkout
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from baofen import RuleSet
from baofen.store import Store
from bench.common.serving import (
    ROOT,
    cpu_seconds,
    free_port,
    percentile,
    print_table,
    start_server,
)

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1/test"
REDIS = "redis://127.0.0.1:6379/0"


async def seat_computers(base: str, code: str) -> Any:
    """Sit at ``code`` in 托管 with three computer players and start: the connection (kept open,
    its messages read and dropped)."""
    socket = await connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{code}", max_size=None)
    for message in ({"type": "join", "seat": 0, "name": "reader"},
                    {"type": "fill_bots", "level": "random"}, {"type": "start"},
                    {"type": "auto", "on": True}):
        await socket.send(json.dumps(message))
    return socket


async def drain(socket: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in socket:
            pass


async def reads(base: str, codes: list[str], readers: int, seconds: float) -> dict[str, Any]:
    """``readers`` clients reading the tables' information at ``base`` for ``seconds``, and a
    pinger of its /health: the figures."""
    answered: list[float] = []
    pings: list[float] = []
    stop = time.monotonic() + seconds

    async def reader(number: int, http: httpx.AsyncClient) -> None:
        turn = number
        while time.monotonic() < stop:
            started = time.perf_counter()
            response = await http.get(f"{base}/api/tables/{codes[turn % len(codes)]}")
            response.raise_for_status()
            answered.append(time.perf_counter() - started)
            turn += 1

    async def pinger(http: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            started = time.perf_counter()
            (await http.get(f"{base}/health")).raise_for_status()
            pings.append(time.perf_counter() - started)
            await asyncio.sleep(0.1)

    limits = httpx.Limits(max_connections=readers + 2)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        started = time.monotonic()
        await asyncio.gather(pinger(http), *(reader(n, http) for n in range(readers)))
        wall = time.monotonic() - started
    return {
        "answers/s": round(len(answered) / wall, 1),
        "p50 ms": round(1000 * percentile(answered, 0.5), 1),
        "p99 ms": round(1000 * percentile(answered, 0.99), 1),
        "health p50 ms": round(1000 * percentile(pings, 0.5), 1),
        "health p95 ms": round(1000 * percentile(pings, 0.95), 1),
    }


async def measure(nodes: list[tuple[int, str]], args: argparse.Namespace
                  ) -> list[dict[str, Any]]:
    """Start the tables on node 0, then read them at node 0 and at node 1: a row each."""
    bases = [base for _, base in nodes]
    rules = RuleSet.baofen(hands=20)
    codes, sockets = [], []
    async with httpx.AsyncClient(timeout=60) as http:
        for _ in range(args.tables):
            response = await http.post(f"{bases[0]}/api/tables", json={
                "rules": rules.to_dict(),
                "settings": {"bid_seconds": None, "kitty_seconds": None, "play_seconds": None},
            })
            response.raise_for_status()
            codes.append(response.json()["code"])
    for code in codes:
        sockets.append(await seat_computers(bases[0], code))
    drains = [asyncio.get_running_loop().create_task(drain(s)) for s in sockets]
    await asyncio.sleep(2)  # every table playing
    rows = []
    try:
        for name, (pid, base) in (("own node", nodes[0]), ("other node", nodes[1])):
            idle = cpu_seconds(pid)
            await asyncio.sleep(args.seconds / 3)
            idle = (cpu_seconds(pid) - idle) / (args.seconds / 3)
            before, started = cpu_seconds(pid), time.monotonic()
            row = await reads(base, codes, args.readers, args.seconds)
            used = cpu_seconds(pid) - before - idle * (time.monotonic() - started)
            answers = row["answers/s"] * (time.monotonic() - started)
            rows.append({"reads at": name, **row,
                         "node CPU ms/answer": round(1000 * used / answers, 2)})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    finally:
        for socket in sockets:
            await socket.close()
        for task in drains:
            task.cancel()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--readers", type=int, default=8, help="concurrent reading clients")
    parser.add_argument("--seconds", type=float, default=15.0, help="reading time a scenario")
    parser.add_argument("--bot-delay", type=float, default=0.1,
                        help="seconds a computer player waits before its move")
    parser.add_argument("--db", default=POSTGRES, help="PostgreSQL URL")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the source tree whose server runs (default: this one)")
    args = parser.parse_args()
    schema = f"bench_{secrets.token_hex(4)}"
    prefix = f"bench-{secrets.token_hex(4)}:"
    nodes = []
    try:
        for index in range(2):
            port = free_port()
            nodes.append((start_server(args.db, port, {
                "BAOFEN_DB_SCHEMA": schema, "BAOFEN_REDIS": REDIS, "BAOFEN_REDIS_PREFIX": prefix,
                "BAOFEN_NODE": f"n{index}", "BAOFEN_BOT_DELAY": str(args.bot_delay),
            }, tree=args.tree), f"http://127.0.0.1:{port}"))
        rows = asyncio.run(measure([(process.pid, base) for process, base in nodes], args))
    finally:
        for process, _ in nodes:
            process.terminate()
            process.wait(30)
        Store(args.db, schema).drop()
    print_table(rows, ["reads at", "answers/s", "p50 ms", "p99 ms", "node CPU ms/answer",
                       "health p50 ms", "health p95 ms"])


if __name__ == "__main__":
    main()
