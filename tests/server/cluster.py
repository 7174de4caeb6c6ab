"""A cluster on loopback for the tests: ``baofen serve --redis`` nodes in subprocesses on one
PostgreSQL schema and one Redis key prefix of their own, and players that move to another node
(with their seat tokens) whenever their connection ends."""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.exceptions import ConnectionClosed, InvalidStatus

from baofen import RuleSet
from baofen.store import Store

from .databases import POSTGRES_URL, Database
from .harness import TIMEOUT, Client, ProcessServer, Seated, finished, free_port

LEASE = 1.5
"""Lease seconds of the test nodes: a dead node's tables move within about two of them."""

SHARED_REDIS = "redis://127.0.0.1:6379/0"


class Cluster:
    """Nodes serving one database through one Redis."""

    def __init__(self, db: Database, redis_url: str = SHARED_REDIS, **env: str) -> None:
        self.db = db
        self.redis_url = redis_url
        self.prefix = f"baofen-test-{secrets.token_hex(4)}:"
        self.env = env
        self.nodes: list[ProcessServer] = []

    def start(self, count: int) -> Cluster:
        """Start ``count`` nodes."""
        for _ in range(count):
            self.add()
        return self

    def add(self) -> ProcessServer:
        """Start one more node (named n0, n1, … in order)."""
        name = f"n{len(self.nodes)}"
        assert self.db.schema is not None
        env = {
            "BAOFEN_REDIS": self.redis_url, "BAOFEN_REDIS_PREFIX": self.prefix,
            "BAOFEN_NODE": name, "BAOFEN_DB_SCHEMA": self.db.schema,
            "BAOFEN_LEASE_SECONDS": str(LEASE), **self.env,
        }
        node = ProcessServer(self.db.url, free_port(), env)
        self.nodes.append(node)
        return node

    @property
    def bases(self) -> list[str]:
        """Every node's base URL (dead ones too)."""
        return [node.base for node in self.nodes]

    def live(self) -> list[str]:
        """Base URLs of the nodes running now (not killed or frozen)."""
        return [n.base for n in self.nodes if n.process.poll() is None and not frozen(n)]

    def stop(self) -> None:
        """Stop every node and delete the cluster's Redis keys."""
        for node in self.nodes:
            with contextlib.suppress(ProcessLookupError):
                node.process.send_signal(18)  # SIGCONT: a frozen node must be able to stop
                node.process.terminate()
        for node in self.nodes:
            try:
                node.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:  # stopping is not what these tests check
                node.kill()
        with contextlib.suppress(redis.RedisError):
            client = redis.Redis.from_url(self.redis_url)
            keys = list(client.scan_iter(f"{self.prefix}*"))
            if keys:
                client.delete(*keys)
            client.close()


def frozen(node: ProcessServer) -> bool:
    """True while the node's process is stopped (SIGSTOP)."""
    try:
        status = Path(f"/proc/{node.process.pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return status == "T"


@contextlib.contextmanager
def running(db: Database, count: int, **env: str) -> Iterator[Cluster]:
    """``count`` nodes on ``db`` (PostgreSQL) and the shared Redis."""
    cluster = Cluster(db, **env)
    try:
        yield cluster.start(count)
    finally:
        cluster.stop()


class Unique(Seated):
    """:class:`Seated` whose actions never share an ``id`` (one it forgot may still be
    answered late)."""

    def __init__(self, client: Client, rules: RuleSet, seed: int) -> None:
        super().__init__(client, rules, seed)
        self.sent = 0

    def act(self, state: dict[str, Any]) -> None:
        """Send this seat's action for ``state``, under a fresh id."""
        self._acted_at = state["table"]["version"]
        self.sent += 1
        message = self.player.message(state)
        self._sent[self.sent] = message
        self.client.send(id=self.sent, **message)


class Roaming:
    """A seated player (random decisions) who, whenever their connection ends, reconnects to
    the next live node and reclaims the seat with its token. It remembers every state it saw,
    and every action acknowledged (by the table's version)."""

    def __init__(self, cluster: Cluster, node: int, code: str, seat: int, rules: RuleSet) -> None:
        self.cluster = cluster
        self.node = node
        self.code = code
        self.rules = rules
        client = Client(cluster.bases[node], code)
        client.join(seat, f"p{seat}")
        self.seated = Unique(client, rules, seed=seat)
        self.states: list[dict[str, Any]] = [s for s in client.received if s["type"] == "state"]
        self.moves = 0
        self.sent_at = 0.0
        self.hold = False
        """While True it only reads (it does not act)."""
        self.refused: list[dict[str, Any]] = []
        """The ``unavailable`` errors it got."""
        self.forgotten: set[int] = set()
        """Ids of the actions it gave up waiting for."""
        self.late: dict[int, dict[str, Any]] = {}
        """Those actions by id."""

    @property
    def client(self) -> Client:
        """The connection now."""
        return self.seated.client

    @property
    def acked(self) -> dict[int, dict[str, Any]]:
        """Version → the action message acknowledged at that version."""
        return self.seated.acked

    def poll(self, timeout: float = 0.01) -> None:
        """Read, act when due, and reconnect when the connection ended. An action refused as
        ``unavailable`` (its node lost the table meanwhile) is forgotten, like one whose
        answer was lost (it is sent again if still due, after a ``sync``)."""
        try:
            while True:
                try:
                    message = self.client.recv(timeout)
                except TimeoutError:
                    break
                timeout = 0.0
                if message["type"] == "state":
                    self.states.append(message)
                if message["type"] == "error" and message["id"] in self.forgotten:
                    continue  # an action sent again meanwhile, or no longer due
                if message["type"] == "error" and message["code"] == "unavailable":
                    self.refused.append(message)
                    self.forget_pending()
                    continue
                if message["type"] == "ack" and message["id"] in self.forgotten:
                    self.forgotten.discard(message["id"])  # stored after all: keep it
                    self.seated.acked[message["version"]] = self.late.pop(message["id"])
                    continue
                self.seated._take(message)
            if not self.hold:
                self.seated._maybe_act()
        except ConnectionClosed:
            self.reconnect()
            return
        if self.seated._sent:
            self.sent_at = self.sent_at or time.monotonic()
            if time.monotonic() - self.sent_at > 3 * LEASE:  # its answer was lost: look again
                self.forget_pending()
                self.client.send(type="sync")
        else:
            self.sent_at = 0.0

    def forget_pending(self) -> None:
        """Forget an action not acknowledged (it may or may not have been stored)."""
        self.forgotten |= set(self.seated._sent)
        self.late.update(self.seated._sent)
        self.seated._sent.clear()
        self.seated._acted_at = -1
        self.sent_at = 0.0

    def reconnect(self, deadline: float = 6 * LEASE + TIMEOUT) -> None:
        """Reconnect to the next live node with the seat token (trying until one takes it)."""
        token, seat = self.client.token, self.client.seat
        self.forget_pending()
        give_up = time.monotonic() + deadline
        while time.monotonic() < give_up:
            live = self.cluster.live()
            self.node = (self.node + 1) % len(self.cluster.bases)
            base = self.cluster.bases[self.node]
            if base not in live:
                continue
            try:
                client = Client(base, self.code)
                client.send(type="reclaim", token=token)
                joined = client.expect("joined", timeout=3 * LEASE)
            except (ConnectionClosed, InvalidStatus, TimeoutError, OSError):
                time.sleep(0.1)
                continue
            assert joined["seat"] == seat
            client.token = token
            self.seated.client = client
            self.moves += 1
            return
        raise AssertionError("no node took the player back")


def play(players: list[Roaming], until: Any = None, limit: float = 120.0) -> None:
    """Let every player play until ``until()`` (default: every player saw the match end)."""
    done = until or (lambda: all(p.client.state and finished(p.client.state) for p in players))
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the match did not go on"
        for player in players:
            player.poll(0.005)
    if until is None:  # the last action's ack follows the last state: read it
        for player in players:
            player.hold = True
            player.poll(0.2)
            player.hold = False


def one_history(players: list[Roaming]) -> dict[int, str]:
    """Version → what every state at that version showed of the match (the same to all)."""
    seen: dict[int, str] = {}
    for player in players:
        for state in player.states:
            observation = state["observation"]
            shown = json.dumps([state["table"]["match"], state["table"]["status"],
                                observation and observation["to_act"]], sort_keys=True)
            version = state["table"]["version"]
            assert seen.setdefault(version, shown) == shown, (version, seen[version], shown)
    return seen


def stored_log(db: Database, code: str) -> list[Any]:
    """The table's stored events."""
    store = Store(POSTGRES_URL, db.schema)
    try:
        stored = store.load(code)
    finally:
        store.close()
    assert stored is not None
    return stored.events


def own_redis(port: int) -> tuple[subprocess.Popen[bytes], int]:
    """A redis-server of the test's own on ``port`` (no persistence), and its port."""
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no",
         "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    client.close()
    return process, port


def read_eventually(
    base: str, code: str, check: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The table's information read at ``base`` once ``check`` holds (another node answers from
    what the owner publishes, up to 0.1 s behind); fails after 5 s."""
    deadline = time.monotonic() + 5
    while True:
        info: dict[str, Any] = httpx.get(f"{base}/api/tables/{code}").json()
        if check(info):
            return info
        assert time.monotonic() < deadline, info
        time.sleep(0.1)
