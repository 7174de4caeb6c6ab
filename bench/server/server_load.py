"""Load test of the game server: K concurrent tables of four WebSocket players on loopback.

Starts ``baofen serve`` in a subprocess on a fresh database (with ``--db``, a schema of its own
there, dropped afterwards), creates K tables (one hand each, no turn timer), and seats four
clients at each; every client plays the random bot's move from the
``state`` it receives (rebuilt into an engine observation), so every action takes the real path:
client → WebSocket → validation → rules → database commit → per-seat views → four clients.

Reported per K: accepted actions per second, and the latency from sending an action to the
moment the last of the table's four players has received the resulting state (p50, p99), and
to the actor's own copy; and the CPU time of the server process (and of the clients) per action.

At human pace (``--pace``) each player thinks a random time before each move, uniform between
half and one and a half times the pace (one pace on average): real players do not all act at
the same moment, as players of a fixed pace, every table started together, would (the tables'
moves would come in waves of K at once). ``--spectators S`` has S more clients watch each
table; the server's CPU per spectator is the difference to a run without them.

    PYTHONPATH=src python3 -m bench.server.server_load            # K = 10, 50, 200
    PYTHONPATH=src python3 -m bench.server.server_load -k 10 -k 50 --db postgresql+psycopg://...
    PYTHONPATH=src python3 -m bench.server.server_load -k 500 --pace 1      # at human pace
    PYTHONPATH=src python3 -m bench.server.server_load -k 50 --spectators 4
    PYTHONPATH=src python3 -m bench.server.server_load -k 50 --tree /tmp/before  # another tree
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import secrets
import tempfile
import time
from pathlib import Path

from baofen import RuleSet
from baofen.store import Store
from bench.common.load import run_tables, summarise
from bench.common.serving import ROOT, cpu_seconds, free_port, print_table, start_server


def main() -> None:
    """Run the benchmark and print one row per K."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", type=int, action="append", help="concurrent tables (repeatable)")
    parser.add_argument("--variant", default="baofen", choices=["baofen", "hongwu"])
    parser.add_argument("--hands", type=int, default=1, help="hands per table")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds a player thinks after its turn comes, on average "
                        "(1: human pace)")
    parser.add_argument("--spectators", type=int, default=0,
                        help="clients watching each table besides its four players")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the source tree whose server to run (default: this one)")
    args = parser.parse_args()
    # The clients' objects so far stay out of the collector's passes, and it runs less often
    # (as the server does): thousands of connections' objects made its full passes stall every
    # client for a while, counted as the server's latency.
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    rules = RuleSet.create(variant=args.variant, hands=args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        # A database of the URL's server gets a fresh schema of its own, dropped afterwards:
        # every table an earlier run left unfinished would be loaded again by this server.
        schema = f"bench_{secrets.token_hex(4)}" if args.db else None
        port = free_port()
        extra = {"BAOFEN_DB_SCHEMA": schema} if schema else None
        server = start_server(db, port, extra, tree=args.tree)
        try:
            rows = []
            for k in args.k or [10, 50, 200]:
                server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
                wall, runs = asyncio.run(
                    run_tables(f"http://127.0.0.1:{port}", k, rules, args.pace, args.spectators)
                )
                server_cpu = cpu_seconds(server.pid) - server_cpu
                client_cpu = time.process_time() - client_cpu
                rows.append(summarise(k, wall, runs, server_cpu, client_cpu))
                print(json.dumps(rows[-1]), flush=True)
        finally:
            server.terminate()
            server.wait(30)
            if schema is not None:
                Store(db, schema).drop()
    print_table(rows, list(rows[0]))



if __name__ == "__main__":
    main()
