"""A duplicate tournament's round on one ``baofen serve``: E entrants (E/4 tables) play a round
of D deals, every seat played by the computer at delay 0.

The entrants register as guests who never come, with a drop grace of 10 ms: a moment after the
round starts every seat is played by the computer (托管, the server's ``auto_bot``), so the
round is all computer play — the load of a round, the people's pauses aside.

Reported: the time from the round's start to its end (every table's D deals played and
stored), the server's CPU time over it, its peak resident memory, and the hands stored.

    nice -n 10 PYTHONPATH=src python3 -m bench.server.tournament_load --entrants 256 --deals 8
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bench.common.serving import cpu_seconds, free_port, start_server

PASSWORD = "correct horse battery"


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def run(entrants: int, deals: int, limit: float) -> dict[str, object]:
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
            for n in range(entrants):
                answer = guests.post(f"/api/tournaments/{code}/entrants", json={"name": f"E{n}"})
                assert answer.status_code == 201, answer.text
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
    return {"entrants": entrants, "tables": tables, "deals": deals, "round s": round(wall, 1),
            "server CPU s": round(used, 1), "CPU share": round(used / wall, 2),
            "peak RSS MiB": round(memory, 1), "hands stored": hands,
            "hands/s": round(hands / wall, 1)}


def main() -> None:
    """Run once and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds the round may take")
    args = parser.parse_args()
    print(json.dumps(run(args.entrants, args.deals, args.limit), indent=1))


if __name__ == "__main__":
    main()
