"""每日复式挑战 at scale: ENTRANTS entrants' results of a day's DEALS deals stored, then ranked
and served by a ``baofen serve`` of its own (the package on ``PYTHONPATH``): the first page of
the day's leaderboard (which ranks the day), every page after it, the period boards, and one
deal's traveller (every result on it); then, in process on the same database, the first read
of the day's board after each of a few new results (the day ranked again in the background)
and how long the new board takes to come. The day is yesterday, so every answer is public.

usage: PYTHONPATH=src python3 -m bench.server.challenge_board [ENTRANTS] [DB_URL]
       (default 10000 and a fresh SQLite file; e.g. postgresql+psycopg://postgres@127.0.0.1/test)
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import insert

from baofen.server.challenge.results import Results
from baofen.store import Store
from baofen.store import schema as db
from baofen.store.challenges import Challenges

from ..common.serving import free_port, percentile, print_table, start_server

ENTRANTS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
DEALS = 8
CHUNK = 2_000


def fill(url: str, schema: str | None, day: str) -> None:
    """ENTRANTS entries of ``day`` with DEALS finished plays each (results as 包分 points)."""
    store = Store(url, schema)
    rng = random.Random(1)
    now = datetime.now(UTC)
    with store.engine.begin() as conn:
        conn.execute(insert(db.challenge_days).values(  # the day's deals, as first asked for
            variant="baofen", day=day, created=now,
            deals=[{"seed": deal, "seat": deal % 4} for deal in range(1, DEALS + 1)]))
        entries = [{"id": n, "variant": "baofen", "day": day, "account_id": None,
                    "guest_hash": f"{n:064x}", "name": f"玩家{n}", "created": now}
                   for n in range(1, ENTRANTS + 1)]
        for start in range(0, len(entries), CHUNK):
            conn.execute(insert(db.challenge_entries), entries[start:start + CHUNK])
        tables, plays = [], []
        for n in range(1, ENTRANTS + 1):
            for deal in range(1, DEALS + 1):
                code = f"b{n:07d}d{deal}"
                tables.append({"code": code, "rules": {}, "settings": {}, "seed": 0,
                               "status": "finished", "created": now, "updated": now})
                plays.append({"entry_id": n, "deal": deal, "variant": "baofen", "day": day,
                              "table_code": code, "seat": deal % 4,
                              "result": 5 * rng.randint(-30, 30), "finished": now,
                              "contract": {"declarer": rng.randrange(4), "target": 95,
                                           "declarer_points": 100, "made": True,
                                           "kind": None}})
        for start in range(0, len(tables), CHUNK):
            conn.execute(insert(db.tables), tables[start:start + CHUNK])
            conn.execute(insert(db.challenge_plays), plays[start:start + CHUNK])
    store.close()


def after_results(url: str, schema: str | None, day: str) -> tuple[list[float], list[float]]:
    """The first read of the day's board after each of 10 new results (ms), and how long each
    new board took to replace the one before (ms)."""
    store = Store(url, schema)
    results = Results(Challenges(store))
    the_day = date.fromisoformat(day)
    results.day("baofen", the_day, over=True)
    reads, fresh = [], []
    for _ in range(10):
        before = results.day("baofen", the_day, over=True)
        results._changes[("baofen", day)] += 1  # as a result settled on this server does
        start = time.perf_counter()
        results.day("baofen", the_day, over=True)
        reads.append(1000 * (time.perf_counter() - start))
        while results.day("baofen", the_day, over=True) is before:
            time.sleep(0.005)
        fresh.append(1000 * (time.perf_counter() - start))
    store.close()
    return reads, fresh


def timed(client: httpx.Client, path: str) -> tuple[float, httpx.Response]:
    """Milliseconds a GET takes, and its answer."""
    start = time.perf_counter()
    answer = client.get(path)
    answer.raise_for_status()
    return 1000 * (time.perf_counter() - start), answer


def main() -> None:
    url = sys.argv[2] if len(sys.argv) > 2 else \
        f"sqlite:///{Path(tempfile.mkdtemp()) / 'baofen.db'}"
    # PostgreSQL: a schema of the run's own, dropped afterwards.
    schema = None if url.startswith("sqlite") else f"bench_challenge_{os.getpid()}"
    day = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    start = time.perf_counter()
    fill(url, schema, day)
    print(f"stored {ENTRANTS} entrants × {DEALS} deals in {time.perf_counter() - start:.1f} s")
    port = free_port()
    server = start_server(url, port, {"BAOFEN_CHALLENGE_DEALS": str(DEALS),
                                      "BAOFEN_CHALLENGE_MIN_DAYS": "1",
                                      **({"BAOFEN_DB_SCHEMA": schema} if schema else {})})
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            board = f"/api/challenge/baofen/leaderboard?period=day&day={day}"
            first, answer = timed(client, board + "&page=1")
            assert answer.json()["entrants"] == ENTRANTS
            pages = [timed(client, f"{board}&page={page}")[0]
                     for page in range(1, ENTRANTS // 50 + 1)]
            week_first, _ = timed(client, "/api/challenge/baofen/leaderboard?period=week")
            week = [timed(client, "/api/challenge/baofen/leaderboard?period=week&page=2")[0]
                    for _ in range(20)]
            traveller = [timed(client, f"/api/challenge/baofen/deals/1?day={day}")[0]
                         for _ in range(5)]
        reads, fresh = after_results(url, schema, day)
    finally:
        server.terminate()
        server.wait()
        if schema is not None:
            Store(url, schema).drop()
    rows = [
        {"answer": "day board, first page (ranks the day)", "ms": f"{first:.0f}"},
        {"answer": f"day board, each of its {len(pages)} pages after: median / p99 / worst",
         "ms": f"{percentile(pages, 0.5):.1f} / {percentile(pages, 0.99):.1f} / "
               f"{max(pages):.1f}"},
        {"answer": "week board, first page (ranks the week)", "ms": f"{week_first:.0f}"},
        {"answer": "week board, a page after: median / worst",
         "ms": f"{percentile(week, 0.5):.1f} / {max(week):.1f}"},
        {"answer": f"a deal's traveller ({ENTRANTS} results): median / worst",
         "ms": f"{percentile(traveller, 0.5):.0f} / {max(traveller):.0f}"},
        {"answer": "day board, first read after a new result (10): median / worst",
         "ms": f"{percentile(reads, 0.5):.1f} / {max(reads):.1f}"},
        {"answer": "the new board there after: median / worst",
         "ms": f"{percentile(fresh, 0.5):.0f} / {max(fresh):.0f}"},
    ]
    print_table(rows, ["answer", "ms"])


if __name__ == "__main__":
    main()
