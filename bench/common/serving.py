"""A ``baofen serve`` process for the load benchmarks: started on loopback without rate limits,
its CPU time read from /proc, and the figures' quantiles and tables."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
"""The source tree these benchmarks belong to (its ``src`` is the server they start)."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")




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




def print_table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    """Print ``rows`` as a Markdown table of ``columns`` (for docs/benchmarks.md)."""
    print("\n| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")

