"""A duplicate tournament's round on one ``baofen serve``: E entrants (E/4 tables) play a round
of D deals, every seat played by the computer at delay 0.

The entrants register as guests who never come, with a drop grace of 10 ms: a moment after the
round starts every seat is played by the computer (托管, the server's ``auto_bot``), so the
round is all computer play — the load of a round, the people's pauses aside.

Reported: the time from the round's start to its end (every table's D deals played and
stored), the server's CPU time over it, its peak resident memory, and the hands stored. With
``--humans H``, H of the entrants are people instead (scripted WebSocket clients that take their
seat back at the start and play the random bot's moves about ``--pace`` seconds after their
turn comes): the p50 and p99 time from a person's action to its result reaching them.

    PYTHONPATH=src nice -n 10 python3 -m bench.server.tournament_load --entrants 256 --deals 8
    PYTHONPATH=src nice -n 10 python3 -m bench.server.tournament_load --entrants 256 --deals 8 \
        --humans 16 --pace 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from baofen import RuleSet
from bench.common.load import TableRun, player
from bench.common.serving import cpu_seconds, free_port, percentile, start_server

PASSWORD = "correct horse battery"


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def people(base: str, code: str, tokens: list[str], deals: int, pace: float,
           runs: list[TableRun]) -> None:
    """The people: each finds their table, takes their seat back and plays the round out."""

    async def one(n: int, token: str) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            while True:
                mine = await client.get(f"/api/tournaments/{code}/mine",
                                        headers={"X-Entrant-Token": token})
                if mine.status_code == 200:
                    break
                await asyncio.sleep(0.2)
        table = mine.json()
        url = base.replace("http", "ws", 1) + table["websocket"]
        await player(url, table["seat"], RuleSet.baofen(hands=deals), runs[n], seed=n, pace=pace,
                     first={"type": "reclaim", "token": token})

    async def everyone() -> None:
        await asyncio.gather(*(one(n, token) for n, token in enumerate(tokens)))

    asyncio.run(everyone())


def run(entrants: int, deals: int, limit: float, humans: int = 0,
        pace: float = 1.0) -> dict[str, object]:
    """One round of a duplicate event; its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}", port, {
            "BAOFEN_DROP_GRACE": "0.01", "BAOFEN_MAX_TABLES": "100000",
            "BAOFEN_SIGNUP_BURST": "100000"})
        base = f"http://127.0.0.1:{port}"
        try:
            organiser = httpx.Client(base_url=base, timeout=60)
            made = organiser.post("/api/accounts", json={"username": "organiser",
                                                         "password": PASSWORD})
            assert made.status_code == 201, made.text
            start = datetime.now(UTC) + timedelta(seconds=max(10.0, entrants / 20))
            created = organiser.post("/api/tournaments", json={"settings": {
                "name": "bench", "format": "duplicate", "rounds": 1, "hands": deals,
                "start": start.isoformat(), "seat_limit": max(4, entrants), "bot_level": "normal",
                "play_seconds": 30.0}})
            assert created.status_code == 201, created.text
            code = created.json()["code"]
            guests = httpx.Client(base_url=base, timeout=60)
            tokens = []
            for n in range(entrants):
                answer = guests.post(f"/api/tournaments/{code}/entrants", json={"name": f"E{n}"})
                assert answer.status_code == 201, answer.text
                if n < humans:
                    tokens.append(answer.json()["token"])
            runs = [TableRun() for _ in tokens]
            playing = threading.Thread(target=people, args=(base, code, tokens, deals, pace, runs),
                                       daemon=True)
            playing.start()
            while datetime.now(UTC) < start:
                time.sleep(0.05)
            began, cpu = time.monotonic(), cpu_seconds(server.pid)
            deadline = began + limit
            while True:
                info = guests.get(f"/api/tournaments/{code}").json()
                if info["status"] == "finished":
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the round did not end in {limit} s: {info['counted']} "
                                       "deals counted")
                time.sleep(1.0)  # reading the standings is work for the server too
            wall = time.monotonic() - began
            used = cpu_seconds(server.pid) - cpu
            memory = peak_rss_mib(server.pid)
            tables = len(info["tables"])
            hands = sum(len(guests.get(f"/api/tables/{t['code']}/hands").json())
                        for t in info["tables"])
        finally:
            server.kill()
            server.wait()
    figures: dict[str, object] = {
        "entrants": entrants, "people": humans, "tables": tables, "deals": deals,
        "round s": round(wall, 1), "server CPU s": round(used, 1),
        "CPU share": round(used / wall, 2), "peak RSS MiB": round(memory, 1),
        "hands stored": hands, "hands/s": round(hands / wall, 1)}
    latencies = [r.received[v][r.actor[v]] - sent for r in runs for v, sent in r.sent.items()
                 if r.actor[v] in r.received.get(v, {})]
    if latencies:
        figures |= {"people's actions": len(latencies),
                    "p50 action ms": round(1000 * statistics.median(latencies), 1),
                    "p99 action ms": round(1000 * percentile(latencies, 0.99), 1)}
    return figures


def main() -> None:
    """Run once and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds the round may take")
    parser.add_argument("--humans", type=int, default=0, help="entrants who are people")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="a person's mean seconds to act")
    args = parser.parse_args()
    print(json.dumps(run(args.entrants, args.deals, args.limit, args.humans, args.pace),
                     indent=1))


if __name__ == "__main__":
    main()
