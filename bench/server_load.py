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

    PYTHONPATH=src python3 bench/server_load.py            # K = 10, 50, 200
    PYTHONPATH=src python3 bench/server_load.py -k 10 -k 50 --db postgresql+psycopg://...
    PYTHONPATH=src python3 bench/server_load.py -k 500 --pace 1      # at human pace
    PYTHONPATH=src python3 bench/server_load.py -k 50 --spectators 4
    PYTHONPATH=src python3 bench/server_load.py -k 50 --tree /tmp/before  # another tree's server
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from baofen import Observation, RuleSet
from baofen.bots import make_bot
from baofen.store import Store
from baofen.tricks import Trick
from baofen.wire.actions import action_message
from baofen.wire.observation import ObservationView
from baofen.wire.patch import apply as apply_patch
from baofen.wire.tricks import TrickView

ROOT = Path(__file__).resolve().parents[1]
RUN_LIMIT = 600.0
"""Seconds one K may take before the benchmark gives up."""


class Seen:
    """A client's engine observations, rebuilt from its views for its bot: each finished trick
    converted once (a view's tricks are the same objects from one patch to the next), and the
    记牌器 left out (the engine's observation has none); the client's CPU is not the server's."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._tricks: dict[int, tuple[dict[str, Any], Trick]] = {}

    def of(self, observation: dict[str, Any]) -> Observation:
        """The engine observation of a view's ``observation``."""
        seen = ObservationView.model_validate(
            {**observation, "tricks": [], "counter": None}
        ).to_observation(self.rules)
        return dataclasses.replace(seen, tricks=tuple(map(self._trick, observation["tricks"])))

    def _trick(self, data: dict[str, Any]) -> Trick:
        known = self._tricks.get(id(data))
        if known is None or known[0] is not data:
            known = self._tricks[id(data)] = (data, TrickView.model_validate(data).to_trick())
        return known[1]


@dataclass
class TableRun:
    """Timings of one table: when each action was sent, when each seat received its result."""

    sent: dict[int, float] = field(default_factory=dict)
    """Resulting version → send time of the action that makes it."""
    actor: dict[int, int] = field(default_factory=dict)
    received: dict[int, dict[int, float]] = field(default_factory=dict)
    """Version → seat → receive time."""
    actions: int = 0


async def player(
    url: str, seat: int, rules: RuleSet, run: TableRun, seed: int, pace: float = 0.0
) -> None:
    """One client: join ``seat``, then play the random bot's moves until the match is over,
    each after a think time of ``pace`` seconds on average (none: at once)."""
    bot = make_bot("random", seed=seed)
    think = random.Random(seed)
    seen = Seen(rules)
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "seat": seat, "name": f"p{seat}"}))
        acted = readied = -1
        waiting = False
        """An action sent, its ack not received: the views meanwhile may predate it."""
        view: dict[str, Any] | None = None
        async for raw in ws:
            now = time.perf_counter()
            message = orjson.loads(raw)
            if message["type"] == "error":
                raise RuntimeError(f"seat {seat}: {message}")
            if message["type"] == "ack" or message.pop("ack", None) is not None:
                waiting = False  # an ack of its own (a server before issue 27), or in the view
            if message["type"] == "patch":
                assert view is not None and view["view"] == message["since"], message
                message = apply_patch(view, message)
            if message["type"] == "state":
                view = message
                table = message["table"]
                run.received.setdefault(table["version"], {})[seat] = now
                if table["status"] == "finished":
                    return
                if seat == table["host"] and table["status"] == "waiting" and all(
                    s["kind"] for s in table["seats"]
                ):
                    await ws.send(json.dumps({"type": "start"}))
                observation = message["observation"]
                if (observation and observation["phase"] == "done" and seat not in table["ready"]
                        and table["version"] != readied):  # 继续 after a hand of a match
                    readied = table["version"]
                    await ws.send(json.dumps({"type": "ready"}))
            elif message["type"] != "ack" or view is None:
                continue
            observation, version = view["observation"], view["table"]["version"]
            if observation and observation["to_act"] == seat and version != acted and not waiting:
                acted, waiting = version, True
                action = bot.act(seen.of(observation))
                if pace:
                    await asyncio.sleep(think.uniform(0.5 * pace, 1.5 * pace))
                run.sent[version + 1] = time.perf_counter()
                run.actor[version + 1] = seat
                run.actions += 1
                await ws.send(action_message(action).model_dump_json(exclude={"id"}))


async def spectator(url: str) -> None:
    """One client watching a table until its match is over."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "watch"}))
        view: dict[str, Any] | None = None
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "patch":
                assert view is not None and view["view"] == message["since"], message
                message = apply_patch(view, message)
            if message["type"] == "state":
                view = message
                if message["table"]["status"] == "finished":
                    return


async def run_tables(
    base: str, k: int, rules: RuleSet, pace: float = 0.0, spectators: int = 0
) -> tuple[float, list[TableRun]]:
    """Create and play ``k`` tables at once (each watched by ``spectators`` more clients);
    wall time from the first start, and the runs."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        codes = []
        for _ in range(k):
            response = await http.post("/api/tables", json={
                "rules": rules.to_dict(),
                "settings": {"bid_seconds": None, "kitty_seconds": None, "play_seconds": None},
            })
            response.raise_for_status()
            codes.append(response.json()["code"])
    ws_base = base.replace("http", "ws", 1)
    runs = [TableRun() for _ in codes]
    started = time.perf_counter()
    watching = [
        asyncio.create_task(spectator(f"{ws_base}/ws/tables/{code}"))
        for code in codes for _ in range(spectators)
    ]
    tasks = [
        player(f"{ws_base}/ws/tables/{code}", seat, rules, run, seed=n * 4 + seat, pace=pace)
        for n, (code, run) in enumerate(zip(codes, runs, strict=True))
        for seat in range(4)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks, *watching), RUN_LIMIT)
    return time.perf_counter() - started, runs


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summarise(
    k: int, wall: float, runs: list[TableRun], server_cpu: float, client_cpu: float
) -> dict[str, Any]:
    """Actions per second, latency quantiles (milliseconds) and CPU per action of one K."""
    to_all, to_actor = [], []
    for run in runs:
        for version, sent in run.sent.items():
            seats = run.received.get(version, {})
            if len(seats) == 4:
                to_all.append(max(seats.values()) - sent)
                to_actor.append(seats[run.actor[version]] - sent)
    actions = sum(run.actions for run in runs)
    return {
        "K": k,
        "actions": actions,
        "seconds": round(wall, 2),
        "actions/s": round(actions / wall),
        "p50 ms": round(1000 * statistics.median(to_all), 1),
        "p99 ms": round(1000 * percentile(to_all, 0.99), 1),
        "p50 actor ms": round(1000 * statistics.median(to_actor), 1),
        "p99 actor ms": round(1000 * percentile(to_actor, 0.99), 1),
        "server CPU ms/action": round(1000 * server_cpu / actions, 2),
        "client CPU ms/action": round(1000 * client_cpu / actions, 2),
    }


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: str, port: int, extra: dict[str, str] | None = None, tree: Path = ROOT
) -> subprocess.Popen[bytes]:
    """``baofen serve`` (of the source tree ``tree``) on loopback, without rate limits or
    pauses, with ``extra`` settings (``BAOFEN_*`` variables); waits until it answers."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree / "src"),
        "BAOFEN_BOT_DELAY": "0",
        "BAOFEN_HAND_PAUSE": "0",
        "BAOFEN_RATE_PER_SECOND": "100000",
        "BAOFEN_RATE_BURST": "100000",
        "BAOFEN_SEND_QUEUE": "4096",
        "BAOFEN_CREATE_BURST": "100000",
        "BAOFEN_MAX_CONNECTIONS": "100000",
        **(extra or {}),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "baofen", "serve", "--port", str(port), "--db", db],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


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


def print_table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    """Print ``rows`` as a Markdown table of ``columns`` (for docs/measurements.md)."""
    print("\n| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")


if __name__ == "__main__":
    main()
