"""Text the server cannot store or read: control characters (NUL above all) refused in every
name where it enters the server, a write the database cannot store failing alone in
PostgreSQL's group commit, and a body that is not UTF-8 refused like any bad body."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from baofen import RuleSet
from baofen.server import ServerConfig
from baofen.store import Store
from baofen.store.async_store import AsyncStore, StoreUnavailable
from baofen.store.database import Event, StoredSeat

from .accounts import PASSWORD, sign_up
from .databases import Database, database
from .harness import FAST, Client, ThreadServer, create_table, run_async

CONTROLS = ["Ann\x00", "\x00", "Bo\nb", "Cy\x1b[31m", "Di\u202eaw", "E\u2028d"]
"""NUL, a line break, an escape sequence, a right-to-left override, a line separator."""


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


@pytest.fixture
def live(pg: Database) -> Iterator[ThreadServer]:
    """A server on PostgreSQL, where a NUL could not even be stored."""
    server = ThreadServer(ServerConfig(db=pg.url, db_schema=pg.schema, **FAST))
    yield server
    server.stop()


def test_a_name_with_a_control_character_is_refused_everywhere(live: ThreadServer) -> None:
    base = live.base
    sign_up(base, "Ann")
    code = create_table(base, RuleSet().to_dict())
    client = Client(base, code)
    for name in CONTROLS:
        refused = [
            httpx.post(f"{base}/api/match", json={"name": name}),
            httpx.post(f"{base}/api/quickplay", json={"name": name}),
            httpx.post(f"{base}/api/tables", json={"settings": {"name": name}}),
            httpx.post(f"{base}/api/login", json={"username": name, "password": PASSWORD}),
            httpx.post(f"{base}/api/accounts", json={"username": name, "password": PASSWORD}),
        ]
        for answer in refused:
            assert answer.status_code == 422, (name, answer.text)
            assert "control or invisible character" in answer.text or "username" in answer.text
        client.send(type="join", seat=0, name=name)
        error = client.expect("error")
        assert error["code"] == "invalid_message" and "control" in error["message"], error
        # A name looked up is just not found (PostgreSQL cannot hold a NUL).
        assert httpx.get(f"{base}/api/players/{quote(name)}").status_code == 404
    client.close()


def test_a_write_postgresql_cannot_store_fails_alone_in_its_group(pg: Database) -> None:
    """Writes of 40 tables queued together; one seat's name holds a NUL (as it could before
    the wire refused it): that write fails, the other 39 tables' are stored."""
    store = Store(pg.url, pg.schema)
    codes = [f"t{n}" for n in range(40)]
    for code in codes:
        store.create_table(code, {}, {}, 1)
    bad = 20

    async def write_all(writer: AsyncStore) -> list[Any]:
        writes = [
            writer.save_seat(code, StoredSeat(0, "human", "\x00"))
            if n == bad else writer.append(code, Event(1, "next", {}), None, None)
            for n, code in enumerate(codes)
        ]
        return await asyncio.gather(*writes, return_exceptions=True)

    commit, groups = store.commit, []

    def slow_first(writes: Any, connection: Any = None) -> None:  # the others queue up
        writes = list(writes)                                       # meanwhile: one group
        if not groups:
            time.sleep(0.5)
        groups.append(len(writes))
        commit(writes, connection)

    store.commit = slow_first  # type: ignore[method-assign]
    writer = AsyncStore(store, timeout=5.0)
    try:
        outcomes = run_async(write_all(writer))
    finally:
        writer.close()
    assert max(groups) > 1, groups  # the bad write was in a group with others
    assert isinstance(outcomes[bad], StoreUnavailable)
    assert [o for n, o in enumerate(outcomes) if n != bad] == [None] * (len(codes) - 1)
    reopened = Store(pg.url, pg.schema)
    try:
        stored = {code: reopened.load(code) for code in codes}
        assert all(len(t.events) == 1 for c, t in stored.items() if t and c != codes[bad])
        assert stored[codes[bad]] is not None and stored[codes[bad]].seats == []  # type: ignore[union-attr]
    finally:
        reopened.close()


def test_a_body_that_is_not_utf8_is_refused_like_any_bad_body(server: ThreadServer) -> None:
    for path in ("/api/login", "/api/tables", "/api/match"):
        answer = httpx.post(f"{server.base}{path}", content=b'{"name": "\xff\xfe\xc3"}',
                            headers={"Content-Type": "application/json"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"][0]["msg"] == "the body is not UTF-8 text"
    assert httpx.get(f"{server.base}/api/tables/nosuchcode").status_code == 404
