"""Cluster overhead: the load of bench/server/server_load.py across ``baofen serve --redis`` nodes.

Every node is a subprocess on loopback, on one PostgreSQL schema of its own and one Redis key
prefix of its own. Scenarios (K one-hand tables of four random players each):

- ``single``: one server without Redis (the baseline);
- ``local``: two nodes, every table created on node 0 and every client connected to node 0;
- ``remote``: the same tables, every client connected to node 1, which relays to node 0;
- ``spread N``: N nodes, tables created round-robin, each client on node (table + seat) mod N
  (a load balancer without sticky sessions: most clients are relayed).

Reported per scenario: actions/s, latency (p50, p99, action → last of the four states), and
each node's CPU milliseconds per action.

    PYTHONPATH=src python3 -m bench.server.cluster_load -k 50
    PYTHONPATH=src python3 -m bench.server.cluster_load -k 50 --scenario remote --scenario local
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from typing import Any

import httpx

from baofen import RuleSet
from baofen.store import Store
from bench.common.load import RUN_LIMIT, TableRun, player, summarise
from bench.common.serving import cpu_seconds, free_port, print_table, start_server

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1/test"
REDIS = "redis://127.0.0.1:6379/0"
SCENARIOS = ["single", "local", "remote", "spread 1", "spread 2", "spread 3"]


async def run(
    bases: list[str], k: int, rules: RuleSet, creator: Any, seat_node: Any
) -> tuple[float, list[TableRun]]:
    """Create table ``n`` on node ``creator(n)``, connect its seat ``s`` to node
    ``seat_node(n, s)``, and play them all at once: wall time and the runs."""
    codes = []
    async with httpx.AsyncClient(timeout=60) as http:
        for n in range(k):
            response = await http.post(f"{bases[creator(n)]}/api/tables", json={
                "rules": rules.to_dict(),
                "settings": {"bid_seconds": None, "kitty_seconds": None, "play_seconds": None},
            })
            response.raise_for_status()
            codes.append(response.json()["code"])
    runs = [TableRun() for _ in codes]
    started = time.perf_counter()
    tasks = [
        player(f"{bases[seat_node(n, seat)].replace('http', 'ws', 1)}/ws/tables/{code}",
               seat, rules, table_run, seed=n * 4 + seat)
        for n, (code, table_run) in enumerate(zip(codes, runs, strict=True))
        for seat in range(4)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks), RUN_LIMIT)
    return time.perf_counter() - started, runs


def scenario(name: str, k: int, rules: RuleSet, db: str) -> dict[str, Any]:
    """Start the nodes of scenario ``name``, play, stop: its row."""
    schema = f"bench_{secrets.token_hex(4)}"
    count = {"single": 1, "local": 2, "remote": 2}.get(name) or int(name.split()[1])
    prefix = f"bench-{secrets.token_hex(4)}:"
    nodes = []
    try:
        for index in range(count):
            extra = {"BAOFEN_DB_SCHEMA": schema}
            if name != "single":
                extra |= {"BAOFEN_REDIS": REDIS, "BAOFEN_REDIS_PREFIX": prefix,
                          "BAOFEN_NODE": f"n{index}"}
            port = free_port()
            nodes.append((start_server(db, port, extra), f"http://127.0.0.1:{port}"))
        bases = [base for _, base in nodes]
        if name.startswith("spread"):
            def creator(n: int) -> int:
                return n % count

            def seat_node(n: int, seat: int) -> int:
                return (n + seat) % count
        else:
            def creator(n: int) -> int:
                return 0

            def seat_node(n: int, seat: int) -> int:
                return 1 if name == "remote" else 0
        before = [cpu_seconds(process.pid) for process, _ in nodes]
        client = time.process_time()
        wall, runs = asyncio.run(run(bases, k, rules, creator, seat_node))
        cpu = [cpu_seconds(process.pid) - b for (process, _), b in zip(nodes, before, strict=True)]
        row = summarise(k, wall, runs, sum(cpu), time.process_time() - client)
        actions = row["actions"]
        row = {"scenario": name, **row}
        row["node CPU ms/action"] = " / ".join(f"{1000 * c / actions:.2f}" for c in cpu)
        return row
    finally:
        for process, _ in nodes:
            process.terminate()
            process.wait(30)
        Store(db, schema).drop()


def main() -> None:
    """Run the scenarios and print one row each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", type=int, default=50, help="concurrent tables")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="scenario to run (repeatable; default: all)")
    parser.add_argument("--db", default=POSTGRES, help="PostgreSQL URL")
    args = parser.parse_args()
    rules = RuleSet.create(variant="baofen", hands=1)
    rows = []
    for name in args.scenario or SCENARIOS:
        rows.append(scenario(name, args.k, rules, args.db))
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    columns = ["scenario", "K", "actions/s", "p50 ms", "p99 ms", "server CPU ms/action",
               "node CPU ms/action"]
    print_table(rows, columns)


if __name__ == "__main__":
    main()
