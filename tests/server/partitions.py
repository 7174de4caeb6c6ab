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

import asyncio
import contextlib
import json
import logging
import random
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import redis
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from baofen import RuleSet
from baofen.errors import IllegalAction
from baofen.server import ServerConfig
from baofen.server.table import Table
from baofen.store import Store, StoredTable
from baofen.store.async_store import AsyncStore
from baofen.wire.actions import action_message, read_action_record
from baofen.wire.events import read_event

from .cluster import Unique
from .harness import FAST, ROOT, Client, create_table, to_act
from .netlab import Host, NetLab, wait_healthy

NODES = 3
"""Nodes of the cluster (three: a majority and a minority)."""


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


@dataclass
class Report:
    """What a run did and what the checker found."""

    operations: int = 0
    """Actions acknowledged to the clients."""
    stored: int = 0
    """Events in the stored logs."""
    views: int = 0
    """Views the clients were shown (checked against the stored log)."""
    faults: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    divergent: int = 0
    recovery: float = 0.0
    """The longest time from a heal until every table moved again (seconds)."""
    recoveries: list[float] = field(default_factory=list)
    """That time after each heal, in order."""
    stuck: int = 0
    """Tables that did not move again before the next fault."""
    fenced: int = 0
    """Writes of deposed owners the database refused."""
    margin: float = 0.0
    """The least time left on any lease, sampled every 0.1 s outside the faults (seconds)."""
    lapsed: int = 0
    """Leases that ran out or changed hands outside the faults."""
    refused: dict[str, int] = field(default_factory=dict)
    """Errors the clients were answered, by code."""
    problems: list[str] = field(default_factory=list)
    """The first few anomalies, described."""
    lease: float = 0.0

    def summary(self) -> str:
        return (f"{self.operations} acknowledged actions, {self.stored} stored events, "
                f"{self.views} views checked, {len(self.faults)} faults; lost {self.lost}, "
                f"duplicated {self.duplicated}, divergent {self.divergent}, stuck {self.stuck}; "
                f"longest recovery after a heal {self.recovery:.1f} s; {self.fenced} writes "
                f"refused by fencing; least time left on a lease outside the faults "
                f"{self.margin:.2f} s of {self.lease:.1f} s, {self.lapsed} lapsed; errors "
                f"answered {self.refused}")


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


# -- the leases ------------------------------------------------------------------------------


class LeaseSampler(threading.Thread):
    """Reads every lease's holder and time left in Redis every 0.1 s: the least time left
    and the leases that ran out or changed hands while :attr:`quiet` (no fault near)."""

    def __init__(self, url: str, report: Report) -> None:
        super().__init__(daemon=True)
        self.redis = redis.Redis.from_url(url, socket_timeout=1.0)
        self.report = report
        self.quiet = True
        self.stop = threading.Event()
        self.least: float | None = None

    def run(self) -> None:
        held: dict[bytes, bytes] = {}
        while not self.stop.wait(0.1):
            try:
                keys = list(self.redis.scan_iter(match="*lease:*", count=1000))
                pipe = self.redis.pipeline(transaction=False)
                for key in keys:
                    pipe.get(key)
                    pipe.pttl(key)
                answers = pipe.execute()
            except redis.RedisError:
                held = {}
                continue
            now = {k: v for k, v in zip(keys, answers[::2], strict=True) if v is not None}
            if self.quiet:
                for key, value in held.items():
                    if now.get(key) != value:
                        self.report.lapsed += 1
                        _problem(self.report, f"lease {key.decode()} of {value.decode()} "
                                              "lapsed outside any fault")
                left = [ms / 1000 for ms in answers[1::2] if ms is not None and ms >= 0]
                if left:
                    self.least = min(left + ([self.least] if self.least is not None else []))
            held = now if self.quiet else {}


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
                name = f"client failure: {type(error).__name__}"
                self.errors[name] = self.errors.get(name, 0) + 1
                self.reconnect()

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
        while not self.stop.is_set():
            self.node = (self.node + 1) % len(self.bases)
            try:
                client = connect(self.bases[self.node], self.code)
                client.send(type="reclaim", token=token)
                joined = client.expect("joined", timeout=4)
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
                time.sleep(0.2)
                continue
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


# -- the run ---------------------------------------------------------------------------------


class Run:
    """One partition run in ``directory`` (the hosts' logs stay there)."""

    def __init__(self, settings: Settings, directory: Path) -> None:
        self.settings = settings
        self.directory = directory
        self.rng = random.Random(settings.seed)
        # Matches long enough to outlast a run; not so long that a hand's money result outgrows
        # the 32-bit column that stores it (random play lets the pot grow hand after hand).
        self.rules = RuleSet.baofen(hands=40)
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
        process = node.start([_python(), "-m", "baofen", "serve", "--host", node.address,
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
}
"""Each fault: made on the owner of a table drawn; healed after ``fault_seconds`` (what it
returns runs after the heal)."""


# -- the checker -----------------------------------------------------------------------------


def check(run: Run) -> None:
    """Fill the run's report from the database and the clients' and nodes' logs."""
    report = run.report
    store = Store(run.db_url)
    try:
        stored = {code: store.load(code) for code in run.codes}
    finally:
        store.close()
    by_table: dict[str, list[Player]] = {}
    for player in run.players:
        by_table.setdefault(player.code, []).append(player)
        report.operations += len(player.seated.acked)
        for code, count in player.errors.items():
            report.refused[code] = report.refused.get(code, 0) + count
    for code, table in stored.items():
        assert table is not None, f"table {code} is not stored"
        report.stored += len(table.events)
        _check_table(report, table, by_table[code])
    _check_recovery(run, by_table)
    for node in run.nodes:
        text = (run.directory / f"{node.name}.log").read_text(errors="replace")
        report.fenced += len(re.findall(r"fencing number \d+ is stale", text))


def _problem(report: Report, text: str) -> None:
    if len(report.problems) < 10:
        report.problems.append(text)


def _check_table(report: Report, stored: StoredTable, players: list[Player]) -> None:
    events = stored.events
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        report.duplicated += 1
        _problem(report, f"table {stored.code}: the log's versions are not 1, 2, 3, …")
    for player in players:
        seat = player.client.seat
        for version, message in player.seated.acked.items():
            entry = events[version - 1] if 0 < version <= len(events) else None
            same = False
            if entry is not None and entry.kind == "action":
                record = read_action_record(entry.payload)
                replayed = action_message(record.to_action()).model_dump(mode="json",
                                                                         exclude={"id"})
                same = record.seat == seat and replayed == message
            if not same:
                report.lost += 1
                _problem(report, f"table {stored.code}: seat {seat}'s action acknowledged at "
                                 f"version {version} is not stored there ({message})")
    # Replay the stored log as a node does, comparing each view a client was shown with the
    # one the log gives at its version.
    shown: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for player in players:
        for _, state in player.views:
            shown.setdefault(state["table"]["version"], []).append((player.client.seat, state))
    empty = StoredTable(stored.code, stored.rules, stored.settings, stored.seed, "waiting",
                        stored.created, stored.seats, [])
    table = Table.restore(empty, cast(AsyncStore, _NoStore()), ServerConfig(db="sqlite://"),
                          _no_driver)
    for version in range(len(events) + 1):
        if version:
            try:
                table.log._apply(read_event(events[version - 1].kind, events[version - 1].payload))
            except IllegalAction as error:
                report.duplicated += 1
                _problem(report, f"table {stored.code}: stored event {version} does not "
                                 f"replay ({error})")
                return
            table.log.version = version
        for seat, state in shown.pop(version, []):
            report.views += 1
            if _seen(state) != _seen(table.views.state(seat)):
                report.divergent += 1
                _problem(report, f"table {stored.code}: seat {seat} was shown a view at "
                                 f"version {version} that the stored log does not give")
    for version, states in shown.items():
        report.views += len(states)
        report.divergent += len(states)
        _problem(report, f"table {stored.code}: a view at version {version}, beyond the "
                         f"stored log ({len(events)} events)")


def _seen(state: dict[str, Any]) -> str:
    """What a view shows of the match (not its clocks, seats' connections or numbering)."""
    return json.dumps([state["table"]["status"], state["table"]["match"],
                       state["observation"]], sort_keys=True)


def _check_recovery(run: Run, by_table: dict[str, list[Player]]) -> None:
    """After each heal, how long until every table's version went up (seen by a client)."""
    report = run.report
    for number, heal in enumerate(run.heals):
        report.recoveries.append(0.0)
        until = run.heals[number + 1] - run.settings.fault_seconds if number + 1 < len(
            run.heals) else float("inf")
        for code, players in by_table.items():
            views = sorted((t, s["table"]["version"]) for p in players for t, s in p.views)
            before = max((v for t, v in views if t <= heal), default=0)
            after = next((t for t, v in views if t > heal and v > before and t < until), None)
            finished = any(s["table"]["status"] == "finished" for _, s in
                           ((t, s) for p in players for t, s in p.views))
            if after is None and not finished:
                report.stuck += 1
                _problem(report, f"table {code} did not move after heal {number + 1}")
            elif after is not None:
                report.recovery = max(report.recovery, after - heal)
                report.recoveries[-1] = max(report.recoveries[-1], after - heal)


class _NoStore:
    """The checker's tables never write."""

    fences = None


async def _no_driver(table: Table) -> None:
    """The checker moves its tables itself."""
