"""A big club's pages: a club of 500 members with 50,000 recorded hands (a year of them, every
seat a member's), its standings (7 days, 30 days, all time) and its member list, answered by
the server's routes (FastAPI's test client, in this process) on PostgreSQL.

Fills a fresh PostgreSQL schema (dropped afterwards) with the accounts, the club, its tables and
the results of their hands as the server writes them, then asks each page ``--runs`` times and
prints the median and the slowest time of each.

    PYTHONPATH=src python3 -m bench.server.club_standings \
        --db postgresql+psycopg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import time
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import insert

from baofen.server import ServerConfig
from baofen.server.app import create_app
from baofen.server.security.tokens import token_hash
from baofen.store import Store
from baofen.store import schema as db

HANDS_PER_TABLE = 4


def fill(store: Store, members: int, hands: int, seed: int) -> tuple[str, str]:
    """The accounts, the club and its hands; the club's id and the owner's session cookie."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    club = secrets.token_urlsafe(12)
    with store.engine.begin() as conn:
        conn.execute(insert(db.accounts), [
            {"id": i, "username": f"m{i}", "canonical": f"m{i}", "skeleton": f"m{i}",
             "password_hash": "x", "created": now} for i in range(1, members + 1)])
        conn.execute(insert(db.clubs).values(
            id=club, name="bench", canonical="bench", skeleton="bench", owner_id=1,
            settings={}, created=now))
        conn.execute(insert(db.club_members), [
            {"club_id": club, "account_id": i, "role": "owner" if i == 1 else "member",
             "joined": now} for i in range(1, members + 1)])
        cookie = secrets.token_urlsafe(32)
        conn.execute(insert(db.sessions).values(
            token_hash=token_hash(cookie), account_id=1, created=now,
            expires=now + timedelta(days=1)))
        tables = hands // HANDS_PER_TABLE
        codes = [f"bench{n:08d}" for n in range(tables)]
        conn.execute(insert(db.tables), [
            {"code": code, "rules": {"variant": "baofen"}, "settings": {}, "seed": 1,
             "status": "finished", "created": now, "updated": now} for code in codes])
        conn.execute(insert(db.club_tables), [
            {"table_code": code, "club_id": club, "preset": None, "event": None,
             "opened_by": 1, "created": now} for code in codes])
        rows: list[dict[str, object]] = []
        totals: dict[tuple[object, ...], list[int]] = {}
        for code in codes:
            seated = rng.sample(range(1, members + 1), 4)
            start = now - timedelta(days=rng.uniform(0, 365))
            for number in range(1, HANDS_PER_TABLE + 1):
                declarer, made = rng.randrange(4), rng.random() < 0.6
                for seat, account in enumerate(seated):
                    rows.append({
                        "table_code": code, "hand_number": number, "seat": seat,
                        "club_id": club, "account_id": account, "variant": "baofen",
                        "role": "declarer" if seat == declarer else "defender", "made": made,
                        "result": rng.randrange(-60, 61, 5), "first": number == 1,
                        "finished": start + timedelta(minutes=10 * number)})
            for row in rows[-HANDS_PER_TABLE * 4:]:
                _count(totals, row)
            if len(rows) >= 20_000:
                conn.execute(insert(db.club_results), rows)
                rows = []
        if rows:
            conn.execute(insert(db.club_results), rows)
        for table, day in ((db.club_totals, False), (db.club_days, True)):
            conn.execute(insert(table), [
                {"club_id": club, "variant": "baofen", "account_id": key[0],
                 **({"day": key[1]} if day else {}),
                 **dict(zip(("matches", "hands", "made", "failed", "result"), sums,
                            strict=True))}
                for key, sums in _sums(totals, day).items()])
        conn.exec_driver_sql("analyze")
    return club, cookie


def _count(totals: dict[tuple[object, ...], list[int]], row: dict[str, object]) -> None:
    """Count a result row in its member's day, as the server does when a hand finishes."""
    declarer = row["role"] == "declarer"
    finished = row["finished"]
    assert isinstance(finished, datetime)
    sums = totals.setdefault((row["account_id"], finished.date()), [0, 0, 0, 0, 0])
    for index, value in enumerate((int(bool(row["first"])), 1, int(declarer and bool(row["made"])),
                                   int(declarer and not row["made"]), int(str(row["result"])))):
        sums[index] += value


def _sums(days: dict[tuple[object, ...], list[int]],
          by_day: bool) -> dict[tuple[object, ...], list[int]]:
    """The day sums (``by_day``), or each member's all-time sums made of them."""
    if by_day:
        return days
    totals: dict[tuple[object, ...], list[int]] = {}
    for (account, _), sums in days.items():
        kept = totals.setdefault((account,), [0, 0, 0, 0, 0])
        for index, value in enumerate(sums):
            kept[index] += value
    return totals


def timed(client: TestClient, path: str, runs: int) -> tuple[float, float]:
    """The median and the slowest milliseconds of ``runs`` requests of ``path``."""
    client.get(path).raise_for_status()  # warm
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        client.get(path).raise_for_status()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="postgresql+psycopg://postgres@127.0.0.1/test")
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    schema = f"bench_clubs_{secrets.token_hex(4)}"
    store = Store(args.db, schema)
    try:
        start = time.perf_counter()
        club, cookie = fill(store, args.members, args.hands, args.seed)
        print(f"filled {args.members} members, {args.hands} hands in "
              f"{time.perf_counter() - start:.1f} s")
        app = create_app(ServerConfig(db=args.db, db_schema=schema))
        with TestClient(app) as client:
            client.cookies.set("baofen_session", cookie)
            base = f"/api/clubs/{club}"
            for name, path in [
                ("standings, 7 days", f"{base}/standings?period=week"),
                ("standings, 30 days", f"{base}/standings?period=month"),
                ("standings, all time", f"{base}/standings?period=all"),
                ("member list", f"{base}/members"),
            ]:
                median, slowest = timed(client, path, args.runs)
                print(f"{name:22} median {median:6.1f} ms   slowest {slowest:6.1f} ms")
    finally:
        store.drop()


if __name__ == "__main__":
    main()
