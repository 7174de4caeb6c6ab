"""Pings of one player's table while another client's tables of 大师 players play: the
median, p95 and worst round trip of a ping a twentieth of a second, on a ``baofen serve`` of
its own (the package on ``PYTHONPATH``), after TABLES tables of three 大师 players and a seat
in 托管 have started.

usage: PYTHONPATH=src python3 -m bench.server.bot_ping [TABLES] [SECONDS]   (default 8 and 20)
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

TABLES = int(sys.argv[1]) if len(sys.argv) > 1 else 8
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def table(base: str, variant: str = "baofen") -> str:
    body = {"rules": {"variant": variant, "hands": 8},
            "settings": {"bid_seconds": None, "kitty_seconds": None, "play_seconds": None}}
    answer = httpx.post(f"{base}/api/tables", json=body)
    answer.raise_for_status()
    code: str = answer.json()["code"]
    return code


def load(base: str, stop: threading.Event) -> None:
    """A table of three 大师 players and a player in 托管 (the computer plays every seat)."""
    with connect(base.replace("http", "ws") + f"/ws/tables/{table(base)}") as ws:
        for message in ({"type": "join", "seat": 0, "name": "Load"},
                        {"type": "fill_bots", "level": "master"}, {"type": "start"},
                        {"type": "auto", "on": True}):
            ws.send(json.dumps(message))
        while not stop.is_set():
            try:
                text = str(ws.recv(timeout=1.0))
            except TimeoutError:
                continue
            except ConnectionClosed:  # the server stopped
                return
            if '"phase":"done"' in text.replace(" ", ""):
                ws.send(json.dumps({"type": "ready"}))


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tempfile.mktemp(suffix=".db")  # a path for the server to create
    env = {**os.environ, "BAOFEN_BOT_DELAY": "0", "BAOFEN_CREATE_BURST": "100",
           "BAOFEN_RATE_PER_SECOND": "1000"}
    server = subprocess.Popen([sys.executable, "-m", "baofen", "serve", "--port", str(port),
                               "--db", f"sqlite:///{db}"], env=env, stderr=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                httpx.get(f"{base}/api/tables")
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        stop = threading.Event()
        loads = [threading.Thread(target=load, args=(base, stop), daemon=True)
                 for _ in range(TABLES)]
        for thread in loads:
            thread.start()
        time.sleep(3.0)  # the tables are playing
        rtts = []
        with connect(base.replace("http", "ws") + f"/ws/tables/{table(base)}") as ws:
            ws.send(json.dumps({"type": "join", "seat": 0, "name": "Me"}))
            end = time.monotonic() + SECONDS
            n = 0
            while time.monotonic() < end:
                n += 1
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "ping", "id": n}))
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message.get("type") == "pong" and message.get("id") == n:
                        break
                rtts.append((time.perf_counter() - sent) * 1000)
                time.sleep(0.05)
        stop.set()
        rtts.sort()
        p95 = rtts[int(0.95 * (len(rtts) - 1))]
        print(f"{TABLES} tables of 大师: {len(rtts)} pings, median "
              f"{statistics.median(rtts):.1f} ms, p95 {p95:.1f} ms, max {rtts[-1]:.1f} ms")
    finally:
        server.terminate()
        server.wait()
        os.unlink(db)


if __name__ == "__main__":
    main()
