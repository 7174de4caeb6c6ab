"""Load test of 匹配 (quick match): P players ask at once, spread over N ``baofen serve``
processes; with N > 1 the processes share one Redis line. Each player polls its ticket every
0.2 s until seated (P is a multiple of four, so that no group waits for the computer).

Reported: the time until every player is seated, the time from asking to being seated (p50,
p99), the tables made, and a check that no seat was given twice.

    PYTHONPATH=src python3 -m bench.server.quickmatch_load           # 1 process, memory
    PYTHONPATH=src python3 -m bench.server.quickmatch_load --processes 2 --redis redis://127.0.0.1:6379/9

The Redis run deletes the keys ``baofen:match:*`` of the database it is given, before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import redis

from bench.common.serving import free_port, percentile, start_server

POLL_SECONDS = 1.0
CONNECTIONS = 100
"""HTTP connections the players share (the client is one process)."""


async def player(client: httpx.AsyncClient, base: str, name: str) -> tuple[float, str, int]:
    """Ask, poll until seated; seconds it took, the table's code and the seat."""
    start = time.monotonic()
    answer = await client.post(f"{base}/api/match", json={"name": name})
    assert answer.status_code == 201, answer.text
    ticket = answer.json()
    while ticket["status"] == "waiting":
        await asyncio.sleep(POLL_SECONDS)
        answer = await client.get(f"{base}/api/match/{ticket['ticket']}")
        assert answer.status_code == 200, answer.text
        ticket = answer.json()
    assert ticket["status"] == "seated", ticket
    return time.monotonic() - start, ticket["code"], ticket["seat"]


async def run(bases: list[str], players: int) -> dict[str, object]:
    """Every player at once, round-robin over the processes."""
    limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        start = time.monotonic()
        results = await asyncio.gather(*(
            player(client, bases[n % len(bases)], f"P{n}") for n in range(players)
        ))
        wall = time.monotonic() - start
    waits = [seconds for seconds, _, _ in results]
    seats = {(code, seat) for _, code, seat in results}
    assert len(seats) == players, "a seat was given twice"
    return {
        "players": players, "processes": len(bases), "all seated s": round(wall, 2),
        "p50 s": round(statistics.median(waits), 2), "p99 s": round(percentile(waits, 0.99), 2),
        "tables": len({code for code, _ in seats}),
    }


def clear(url: str) -> None:
    """Delete the quick-match keys of the Redis database at ``url``."""
    with redis.Redis.from_url(url) as client:
        keys = list(client.scan_iter("baofen:match:*"))
        if keys:
            client.delete(*keys)


def main() -> None:
    """Run once and print the row."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--redis", help="Redis URL the processes share (needed for several)")
    args = parser.parse_args()
    if args.processes > 1 and not args.redis:
        parser.error("several processes need --redis")
    if args.redis:
        os.environ["BAOFEN_REDIS"] = args.redis
        clear(args.redis)
    os.environ["BAOFEN_CREATE_PER_MINUTE"] = "100000"
    with tempfile.TemporaryDirectory() as tmp:
        ports = [free_port() for _ in range(args.processes)]
        servers = [start_server(f"sqlite:///{Path(tmp) / f'node{n}.db'}", port)
                   for n, port in enumerate(ports)]
        try:
            row = asyncio.run(run([f"http://127.0.0.1:{p}" for p in ports], args.players))
        finally:
            for server in servers:
                server.terminate()
                server.wait(30)
            if args.redis:
                clear(args.redis)
    print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
