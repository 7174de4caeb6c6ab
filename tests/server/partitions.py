"""A partition run, as Jepsen tests databases: cluster nodes, PostgreSQL and Redis each on a
host of its own (:mod:`.netlab`), tables of scripted players whose clients reach the nodes
through a delaying proxy, and a fixed schedule of faults drawn from a seed; then a checker
reads the database and the clients' logs.

What it checks: every acknowledged action is stored once, at the version it was acknowledged
with (lost: not there); the stored log of every table replays (a duplicated or forked write
does not); every view any client was shown at version v is the view the stored log gives at v
(divergent: not); and every table moves again within :attr:`Report.recovery` after each heal.
The node's logs give the writes the database refused by fencing and the leases' margin."""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from baofen import RuleSet
from baofen.store import Store

from .harness import FAST, ROOT, create_table
from .netlab import Host, NetLab, wait_healthy
from .partition_checks import LeaseSampler, Report, check
from .partition_clients import Player, Proxy, connect

NODES = 3
"""Nodes of the cluster (three: a majority and a minority)."""

NODE_MAIN = """
import logging, time
from baofen.cli import main
class Clock(logging.Filter):
    def filter(self, record):
        record.clock = time.monotonic()
        return True
handler = logging.StreamHandler()
handler.addFilter(Clock())
handler.setFormatter(logging.Formatter("%(clock).2f %(levelname)s %(name)s: %(message)s"))
logging.getLogger("baofen").addHandler(handler)
logging.getLogger("baofen").setLevel(logging.INFO)
main()
"""
"""``baofen serve`` logging the server's INFO lines too, each with the machine's monotonic
clock (the checker's, which says when each fault was healed)."""


@dataclass
class Settings:
    """One run's size and clocks."""

    seed: int = 1
    tables: int = 6
    faults: int = 10
    """Faults in the schedule (it cycles through :data:`FAULTS`, in an order the seed draws)."""
    fault_seconds: float = 8.0
    settle_seconds: float = 8.0
    lease_seconds: float = 1.5
    db_timeout: float = 2.0
    think: float = 0.05
    """Seconds a player and a computer player wait before each move (the machine is shared)."""
    hands: int = 40
    """Hands of each table's match: enough to outlast the run (a finished table has nothing
    left to move, and tests no more faults)."""


# -- the run ---------------------------------------------------------------------------------


class Run:
    """One partition run in ``directory`` (the hosts' logs stay there)."""

    def __init__(self, settings: Settings, directory: Path) -> None:
        self.settings = settings
        self.directory = directory
        self.rng = random.Random(settings.seed)
        self.rules = RuleSet.baofen(hands=settings.hands)
        self.lab = NetLab(directory)
        self.report = Report()
        self.players: list[Player] = []
        self.codes: list[str] = []
        self.heals: list[float] = []
        self.proxy: Proxy | None = None
        self.nodes: list[Host] = []
        self.processes: dict[str, Any] = {}
        self.restarts = 0
        self.sampler: LeaseSampler | None = None

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        for player in self.players:
            player.stop.set()
        if self.proxy is not None:
            self.proxy.close()
        self.lab.close()

    def setup(self) -> None:
        lab = self.lab
        database, broker = lab.host("pg"), lab.host("redis")
        self.pg_host, self.redis_host = database, broker
        self.db_url = lab.postgres(database)
        Store(self.db_url).close()  # the schema, made once before the nodes race for it
        self.redis_url = lab.redis(broker)
        self.nodes = [lab.host(f"n{number}") for number in range(NODES)]
        for node in self.nodes:
            self.start_node(node)
        self.proxy = Proxy(lab.clients, [node.address for node in self.nodes],
                           20000 + self.rng.randrange(20000))
        bases = self.proxy.bases
        for number in range(self.settings.tables):
            home = number % NODES
            code = create_table(bases[home], self.rules.to_dict(), timer=None)
            first, second = connect(bases[home], code), connect(bases[(home + 1) % NODES], code)
            first.join(0, "p0")
            second.join(1, "p1")
            first.send(type="fill_bots", level="random")
            first.expect("ack")
            first.send(type="start")
            first.expect("ack")
            self.codes.append(code)
            for seat, client in enumerate((first, second)):
                self.players.append(Player(bases, code, seat, self.rules, client,
                                           (home + seat) % NODES, self.settings.think))
        for player in self.players:
            player.start()

    def start_node(self, node: Host) -> None:
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src"),
            **{f"BAOFEN_{k.upper()}": str(v) for k, v in FAST.items()},
            "BAOFEN_REDIS": self.redis_url, "BAOFEN_NODE": f"{node.name}-{self.restarts}",
            "BAOFEN_LEASE_SECONDS": str(self.settings.lease_seconds),
            "BAOFEN_DB_TIMEOUT": str(self.settings.db_timeout), "BAOFEN_FORWARDED_ALLOW_IPS": "*",
            "BAOFEN_BOT_DELAY": str(self.settings.think),
        }
        self.restarts += 1
        log = self.directory / f"{node.name}.log"
        process = node.start([_python(), "-c", NODE_MAIN, "serve", "--host", node.address,
                              "--port", "8000", "--db", self.db_url], log, env)
        self.processes[node.name] = process
        wait_healthy(f"http://{node.address}:8000", process, log)

    def owner(self, code: str) -> Host:
        """The node that owns the table (as the registry says), or one drawn."""
        for node in self.nodes:
            with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):
                name = httpx.get(f"http://{node.address}:8000/api/tables/{code}",
                                 timeout=2).json()["node"]
                if name:
                    return next(n for n in self.nodes if name.startswith(f"{n.name}-"))
        return self.rng.choice(self.nodes)

    # -- the schedule ------------------------------------------------------------------------

    def faults(self) -> None:
        kinds = list(FAULTS)
        self.rng.shuffle(kinds)
        time.sleep(self.settings.settle_seconds)
        for number in range(self.settings.faults):
            name = kinds[number % len(kinds)]
            code = self.rng.choice(self.codes)
            owner = self.owner(code)
            self.report.faults.append(f"{name} ({owner.name}, table {code})")
            assert self.sampler is not None
            self.sampler.quiet = False
            after = FAULTS[name](self, owner)
            time.sleep(self.settings.fault_seconds)
            self.lab.heal()
            assert self.proxy is not None
            self.proxy.delay = 0.0
            if after is not None:
                after()
            self.heals.append(time.monotonic())
            # Tables move for a while after a heal (leases run out, owners learn of it).
            settling = min(self.settings.settle_seconds,
                           3 * self.settings.lease_seconds + self.settings.db_timeout)
            time.sleep(settling)
            self.sampler.quiet = True
            time.sleep(self.settings.settle_seconds - settling)

    def play(self) -> Report:
        """Set up, run the schedule, stop, check."""
        self.setup()
        sampler = self.sampler = LeaseSampler(self.redis_url, self.report)
        sampler.start()
        try:
            self.faults()
        finally:
            sampler.stop.set()
            sampler.join(5)
        self.report.margin = sampler.least or 0.0
        self.report.lease = self.settings.lease_seconds
        for player in self.players:
            player.stop.set()
        for player in self.players:
            player.join(15)
        for node in self.nodes:
            process = self.processes[node.name]
            process.terminate()
        for node in self.nodes:
            with contextlib.suppress(Exception):
                self.processes[node.name].wait(15)
        check(self)
        return self.report


def _python() -> str:
    return sys.executable


def _cut_from(peer: Callable[[Run], str], one_way: bool = False) -> Fault:
    def fault(run: Run, owner: Host) -> None:
        run.lab.cut(owner, peer(run), one_way)
    return fault


def _alone(run: Run, owner: Host) -> None:
    for peer in (run.pg_host.address, run.redis_host.address, run.lab.clients):
        run.lab.cut(owner, peer)


def _majority_from_postgres(run: Run, owner: Host) -> None:
    for node in run.nodes:
        if node is not owner:
            run.lab.cut(node, run.pg_host.address)


def _redis_replies_lost(run: Run, owner: Host) -> None:
    run.lab.cut(run.redis_host, owner.address, one_way=True)


def _loss(run: Run, owner: Host) -> None:
    for node in run.nodes:
        run.lab.lose(node, 30)


def _delay(run: Run, owner: Host) -> None:
    assert run.proxy is not None
    run.proxy.delay = 0.3


def _killed_while_cut(run: Run, owner: Host) -> Callable[[], None]:
    run.lab.cut(owner, run.pg_host.address)
    time.sleep(run.settings.fault_seconds / 2)
    owner.kill(run.processes[owner.name])
    return lambda: run.start_node(owner)


def _restarted(service: str) -> Fault:
    """Kill -9 the service (Redis comes back empty: no leases, fencing counters from zero),
    and start it again after the fault's time."""
    def fault(run: Run, owner: Host) -> Callable[[], None]:
        run.lab.crash_service(service)
        return lambda: run.lab.start_service(service)
    return fault


Fault = Callable[[Run, Host], Callable[[], None] | None]

FAULTS: dict[str, Fault] = {
    "owner cut from PostgreSQL": _cut_from(lambda run: run.pg_host.address),
    "owner cut from Redis": _cut_from(lambda run: run.redis_host.address),
    "owner cut from its clients": _cut_from(lambda run: run.lab.clients),
    "owner's packets to PostgreSQL dropped (one way)":
        _cut_from(lambda run: run.pg_host.address, one_way=True),
    "Redis's packets to the owner dropped (one way)": _redis_replies_lost,
    "owner alone in a minority": _alone,
    "the majority cut from PostgreSQL": _majority_from_postgres,
    "30 % packet loss at every node": _loss,
    "300 ms each way between clients and nodes": _delay,
    "owner killed -9 while cut from PostgreSQL": _killed_while_cut,
    "Redis killed -9 and restarted empty": _restarted("redis"),
    "PostgreSQL killed -9 and restarted": _restarted("postgres"),
}
"""Each fault: made on the owner of a table drawn; healed after ``fault_seconds`` (what it
returns runs after the heal)."""


