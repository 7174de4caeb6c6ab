"""Tournaments in cluster mode: two or three nodes on PostgreSQL and Redis. Every node answers
the tournament routes; the node that runs the director (holding its lease) is killed mid-round;
another takes the lease, and the round's tables are taken over (by the director's new node or
any other): the event finishes, every table's hand records are complete and replay, and the
standings count every deal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from baofen import Hand

from .accounts import sign_up
from .cluster import LEASE, SHARED_REDIS, Cluster, running, stored_log
from .databases import Database, database


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


def director_node(cluster: Cluster) -> str | None:
    """The node holding the director's lease now (from Redis)."""
    client = redis.Redis.from_url(SHARED_REDIS)
    try:
        value = client.get(f"{cluster.prefix}lease:~director")
    finally:
        client.close()
    return None if value is None else value.decode().rsplit("|", 1)[0]


def event(base: str, code: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/tournaments/{code}")
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()
    return info


def wait(base: str, code: str, done: Any, limit: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        info = event(base, code)
        if done(info):
            return info
        time.sleep(0.1)
    raise AssertionError(f"the tournament did not get there: {event(base, code)}")


@pytest.mark.parametrize("nodes", [2, 3])
def test_the_directors_node_killed_mid_round(db: Database, nodes: int) -> None:
    with running(db, nodes, BAOFEN_BOT_DELAY="0.02") as cluster:
        deadline = time.monotonic() + 10 * LEASE
        while director_node(cluster) is None:
            assert time.monotonic() < deadline, "no node took the director's lease"
            time.sleep(0.1)
        holder = director_node(cluster)
        assert holder is not None
        dying = int(holder.removeprefix("n"))
        other = cluster.bases[(dying + 1) % nodes]
        # Organised on the node that will die; entrants register and withdraw on the other.
        organiser = sign_up(cluster.bases[dying], "org")
        start = (datetime.now(UTC) + timedelta(seconds=4)).isoformat()
        created = organiser.post("/api/tournaments", json={
            "rules": {"variant": "baofen"},
            "settings": {"name": "集群赛", "start": start, "bot_level": "easy", "rounds": 2,
                         "hands": 1, "play_seconds": 1.0, "break_seconds": 1.0,
                         "seat_limit": 8}})
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        anon = httpx.Client(base_url=other)
        for name in ("G1", "G2", "G3"):
            assert anon.post(f"/api/tournaments/{code}/entrants",
                             json={"name": name}).status_code == 201
        gone = anon.post(f"/api/tournaments/{code}/entrants", json={"name": "G4"}).json()
        assert anon.delete(f"/api/tournaments/{code}/entrants/{gone['number']}",
                           headers={"X-Entrant-Token": gone["token"]}).status_code == 204
        assert event(cluster.bases[dying], code)["registered"] == 3
        seated = wait(other, code, lambda i: i["status"] == "playing" and i["round"] == 1
                      and i["tables"])
        cluster.nodes[dying].kill()
        assert seated["counted"] == 0  # mid-round: its deal not finished
        info = wait(other, code, lambda i: i["status"] == "finished", limit=180)
        assert director_node(cluster) not in (None, holder)
        assert [t["round"] for t in info["tables"]] == [1, 2]
        assert len(info["standings"]) == 4
        assert all(line["hands"] == 2 for line in info["standings"])
        for table in info["tables"]:
            events = stored_log(db, table["code"])
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            records = httpx.get(f"{other}/api/tables/{table['code']}/records").json()
            assert len(records) == 1
            assert Hand.from_record(records[0]).phase == "done"
