"""A network of hosts on this machine for partition tests: each host a network namespace with
one veth link to a bridge in the root namespace (whose address is the clients' host), faults
made with nftables inside the hosts (drops both ways or one way, random loss), and the
processes each host runs. Needs root, ``ip`` and ``nft``; everything it makes is named with
its run's prefix and removed by :meth:`NetLab.close`, also after a failure.

PostgreSQL (a cluster of its own, ``initdb`` into a temporary directory with Debian's binaries)
and redis-server run inside their hosts: the shared ones on loopback are not touched."""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

PREFIX = "bfp"
"""Every namespace, link and bridge of a lab is named ``bfp<run>…`` (at most 15 characters)."""


def unavailable() -> str | None:
    """Why namespaces cannot be made here, or None when they can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "nft", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install iproute2 nftables redis-server)"
    if not postgres_bin():
        return "PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin)"
    probe = f"{PREFIX}probe{secrets.token_hex(2)}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    try:
        nft = subprocess.run(["ip", "netns", "exec", probe, "nft", "add", "table", "inet", "t"],
                             capture_output=True, text=True)
        if nft.returncode != 0:
            return f"nftables does not work in a namespace: {nft.stderr.strip()}"
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def postgres_bin() -> Path | None:
    """Debian's directory of PostgreSQL's server binaries (the newest), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                   key=lambda p: int(Path(p).parent.parent.name))
    return Path(found[-1]).parent if found else None


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")


@dataclass
class Host:
    """A namespace with one address."""

    name: str
    namespace: str
    address: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def nft(self, *rule: str) -> None:
        _run("ip", "netns", "exec", self.namespace, "nft", *rule)

    def start(self, command: list[str], log: Path, env: dict[str, str] | None = None,
              user: str | None = None) -> subprocess.Popen[bytes]:
        """Run ``command`` in this host (its output appended to ``log``)."""
        prefix = ["ip", "netns", "exec", self.namespace]
        if user is not None:
            prefix += ["runuser", "-u", user, "--"]
        with log.open("ab") as out:
            process = subprocess.Popen(prefix + command, stdout=out, stderr=subprocess.STDOUT,
                                       env=env, start_new_session=True)
        self.processes.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """Kill -9 the process (and what it started in its session)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)


class NetLab:
    """Hosts on one bridge; the root namespace (the tests' clients) at ``.1``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.run = secrets.token_hex(2)
        self.prefix = f"{PREFIX}{self.run}"
        self.subnet = f"10.{200 + int(self.run[:2], 16) % 50}.{int(self.run[2:], 16)}"
        self.bridge = f"{self.prefix}br"
        self.clients = f"{self.subnet}.1"
        self.hosts: dict[str, Host] = {}
        self._namespaces: list[str] = []
        self._data: list[Path] = []
        """Every namespace made (also one whose host failed half-way), to remove."""
        self._services: dict[str, tuple[Host, Callable[[], subprocess.Popen[bytes]]]] = {}
        """Each service's host and how it starts (``postgres``, ``redis``)."""
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        """Each service's process now."""
        _run("ip", "link", "add", self.bridge, "type", "bridge")
        _run("ip", "addr", "add", f"{self.clients}/24", "dev", self.bridge)
        _run("ip", "link", "set", self.bridge, "up")

    def host(self, name: str) -> Host:
        """A new host ``name`` (its address the next of the subnet)."""
        number = len(self.hosts) + 10
        namespace = f"{self.prefix}{name}"
        outside, inside = f"{self.prefix}v{number}", "eth0"
        _run("ip", "netns", "add", namespace)
        self._namespaces.append(namespace)
        _run("ip", "link", "add", outside, "type", "veth", "peer", "name", f"{outside}i")
        _run("ip", "link", "set", f"{outside}i", "netns", namespace)
        _run("ip", "-n", namespace, "link", "set", f"{outside}i", "name", inside)
        _run("ip", "link", "set", outside, "master", self.bridge)
        _run("ip", "link", "set", outside, "up")
        _run("ip", "-n", namespace, "addr", "add", f"{self.subnet}.{number}/24", "dev", inside)
        _run("ip", "-n", namespace, "link", "set", inside, "up")
        _run("ip", "-n", namespace, "link", "set", "lo", "up")
        host = self.hosts[name] = Host(name, namespace, f"{self.subnet}.{number}")
        host.nft("add", "table", "inet", "fault")
        for chain in ("input", "output"):
            host.nft("add", "chain", "inet", "fault", chain,
                     f"{{ type filter hook {chain} priority 0; }}")
        return host

    # -- faults --------------------------------------------------------------------------------

    def cut(self, host: Host, peer: str, one_way: bool = False) -> None:
        """Drop the packets between ``host`` and the address ``peer`` (``one_way``: only those
        from ``host`` to ``peer``)."""
        host.nft("add", "rule", "inet", "fault", "output", "ip", "daddr", peer, "drop")
        if not one_way:
            host.nft("add", "rule", "inet", "fault", "input", "ip", "saddr", peer, "drop")

    def lose(self, host: Host, percent: int) -> None:
        """Drop ``percent`` % of the host's packets at random, both ways."""
        for chain, side in (("input", "saddr"), ("output", "daddr")):
            host.nft("add", "rule", "inet", "fault", chain, "ip", side, f"{self.subnet}.0/24",
                     "numgen", "random", "mod", "100", "<", str(percent), "drop")

    def heal(self) -> None:
        """Remove every fault."""
        for host in self.hosts.values():
            for chain in ("input", "output"):
                host.nft("flush", "chain", "inet", "fault", chain)

    # -- services ------------------------------------------------------------------------------

    def postgres(self, host: Host) -> str:
        """A PostgreSQL of its own in ``host`` (trusting the subnet): its URL."""
        binaries = postgres_bin()
        assert binaries is not None
        # Its own directory in /tmp: the postgres user may not enter the tests' (root's 0700).
        data = Path(tempfile.mkdtemp(prefix=f"{self.prefix}-pgdata-"))
        self._data.append(data)
        shutil.chown(data, "postgres")
        data.chmod(0o700)
        _run("runuser", "-u", "postgres", "--", str(binaries / "initdb"), "-D", str(data),
             "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {self.subnet}.0/24 trust\n")
        self._services["postgres"] = (host, lambda: host.start(
            [str(binaries / "postgres"), "-D", str(data), "-c", f"listen_addresses={host.address}",
             "-c", f"unix_socket_directories={data}", "-c", "fsync=off",
             "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
            self.directory / "postgres.log", user="postgres"))
        self.start_service("postgres")
        return f"postgresql+psycopg://postgres@{host.address}:5432/postgres"

    def _postgres_ready(self, host: Host) -> bool:
        binaries = postgres_bin()
        assert binaries is not None
        return subprocess.run(["ip", "netns", "exec", host.namespace, str(binaries / "pg_isready"),
                               "-q", "-h", host.address], capture_output=True).returncode == 0

    def redis(self, host: Host) -> str:
        """A redis-server of its own in ``host`` (no persistence): its URL."""
        self._services["redis"] = (host, lambda: host.start(
            ["redis-server", "--bind", host.address, "--port", "6379", "--save", "",
             "--appendonly", "no", "--protected-mode", "no"], self.directory / "redis.log"))
        self.start_service("redis")
        return f"redis://{host.address}:6379/0"

    def start_service(self, name: str) -> None:
        """Start the service ``name`` (again) and wait until it answers."""
        host, start = self._services[name]
        self.running[name] = start()
        deadline = time.monotonic() + 60
        while not (self._postgres_ready(host) if name == "postgres" else subprocess.run(
                ["redis-cli", "-h", host.address, "ping"], capture_output=True
        ).stdout.strip() == b"PONG"):
            assert time.monotonic() < deadline, f"{name} did not start"
            time.sleep(0.1)

    def crash_service(self, name: str) -> None:
        """Kill -9 the service ``name`` (PostgreSQL: every process of it; Redis, which keeps
        nothing on disk here, comes back empty)."""
        host, _ = self._services[name]
        host.kill(self.running.pop(name))

    def close(self) -> None:
        """Kill every process, remove every namespace, link and the bridge."""
        for host in self.hosts.values():
            for process in host.processes:
                if process.poll() is None:
                    host.kill(process)
        for namespace in self._namespaces:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)
        for data in self._data:
            shutil.rmtree(data, ignore_errors=True)
        leftovers = [name for name in subprocess.run(
            ["ip", "netns", "list"], capture_output=True, text=True
        ).stdout.split() if name.startswith(self.prefix)]
        assert not leftovers, f"namespaces left behind: {leftovers}"


def wait_healthy(base: str, process: subprocess.Popen[bytes], log: Path,
                 limit: float = 120.0) -> None:
    """Wait until the server at ``base`` answers /health."""
    deadline = time.monotonic() + limit
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the node did not start: {log.read_text()[-3000:]}")
        time.sleep(0.2)
