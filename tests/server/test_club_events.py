"""A club's event (亲友圈 比赛) against a live server: only the club's admins create it, a
non-member neither sees nor registers for it (and nothing changes), a member registers, and
the round's table is recorded as the club's, its hands counted in the club's standings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from baofen.store import Store
from baofen.store import schema as db

from .accounts import refused, sign_up
from .databases import Database, database, serving
from .harness import ThreadServer


@pytest.fixture(params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[ThreadServer,
                                                                            Database]]:
    """A server on SQLite, then on PostgreSQL, with its database."""
    for found in database(request.param, tmp_path):
        with serving(found) as server:
            yield server, found


def _body(club: str | None, start_in: float) -> dict[str, Any]:
    start = (datetime.now(UTC) + timedelta(seconds=start_in)).isoformat()
    return {"rules": {"variant": "baofen"}, "club": club,
            "settings": {"name": "周六杯", "start": start, "rounds": 1, "hands": 1,
                         "bot_level": "easy", "play_seconds": 0.05, "break_seconds": 0}}


def test_a_club_event_for_members_only(live: tuple[ThreadServer, Database]) -> None:
    server, found = live
    base = server.base
    owner, ann, eve = (sign_up(base, name) for name in ("Owner", "Ann", "Eve"))
    club = owner.post("/api/clubs", json={"name": "周六包分"}).json()["id"]
    link = owner.post(f"/api/clubs/{club}/invitations", json={}).json()
    assert ann.post(f"/api/club-invitations/{link['code']}").json()["member"]
    # Only the club's owner or admins make its events; a stranger learns nothing of the club.
    refused(ann.post("/api/tournaments", json=_body(club, 3)), 403, "not_admin", key="code")
    refused(eve.post("/api/tournaments", json=_body(club, 3)), 404, "not_found", key="code")
    assert ann.get("/api/tournaments").json() == []
    created = owner.post("/api/tournaments", json=_body(club, 3))
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    assert created.json()["club"] == club
    # A non-member neither sees it nor registers; nothing changes.
    anon = httpx.Client(base_url=base)
    for outsider in (eve, anon):
        assert outsider.get("/api/tournaments").json() == []
        refused(outsider.get(f"/api/tournaments/{code}"), 404, "no_tournament", key="code")
        refused(outsider.get("/api/tournaments", params={"club": club}), 404, "not_found",
                key="code")
    refused(eve.post(f"/api/tournaments/{code}/entrants", json={}), 403, "not_member", key="code")
    refused(anon.post(f"/api/tournaments/{code}/entrants", json={"name": "Eve2"}), 403,
            "not_member", key="code")
    assert owner.get(f"/api/tournaments/{code}").json()["registered"] == 0
    # A member sees the club's events and registers.
    assert [e["code"] for e in ann.get("/api/tournaments", params={"club": club}).json()] == [
        code]
    assert ann.post(f"/api/tournaments/{code}/entrants", json={}).json()["number"] == 1
    deadline = time.monotonic() + 60
    while (info := ann.get(f"/api/tournaments/{code}").json())["status"] != "finished":
        assert time.monotonic() < deadline, f"the event did not finish: {info}"
        time.sleep(0.1)
    [table] = info["tables"]
    # Its table is the club's, recorded with the event; its hands count in the standings.
    store = Store(found.url, found.schema)
    try:
        with store.engine.connect() as conn:
            row = conn.execute(select(db.club_tables).where(
                db.club_tables.c.table_code == table["code"])).one()
    finally:
        store.close()
    assert (row.club_id, row.event) == (club, code)
    seat = table["entrants"].index(1)
    hands = ann.get(f"/api/tables/{table['code']}/hands").json()
    assert len(hands) == 1
    counted = [h for h in hands if h["result"].get("declarer") is not None]
    rows = {r["username"]: r for r in
            ann.get(f"/api/clubs/{club}/standings", params={"period": "all"}).json()["rows"]}
    if counted:
        assert rows["Ann"]["hands"] == 1 and rows["Ann"]["matches"] == 1
        assert rows["Ann"]["result"] == counted[0]["deltas"][seat]
        assert len(ann.get(f"/api/clubs/{club}/members/Ann/history").json()) == 1
    else:  # thrown in: no result for anybody
        assert rows == {}
