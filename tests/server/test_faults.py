"""Faults found by attacking the server: a locked database, a database that is down,
floods of tables and half-open connections, and inputs that once answered 500 or closed the
connection. Each test runs a real server on loopback on a real database."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from baofen import RuleSet
from baofen.server import ServerConfig
from baofen.store import Event, Store
from baofen.store.async_store import AsyncStore, StoreUnavailable

from .databases import POSTGRES_URL, Database, database, serving
from .harness import (
    FAST,
    Client,
    ProcessServer,
    ThreadServer,
    create_table,
    free_port,
    my_turn_at_new_table,
    run_async,
)

QUICK = 1.0
"""Seconds within which a table that does not wait on the database answers (a fraction of
the database timeout the tests set; under a second even on a loaded machine)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """Each of these tests runs on SQLite and on PostgreSQL."""
    yield from database(request.param, tmp_path)


@contextmanager
def locked(db: Database) -> Iterator[None]:
    """Another connection holds the event log's write lock until the block ends."""
    if db.schema is None:
        holder = sqlite3.connect(db.url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    plain = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain) as holder:
        holder.execute(f'LOCK TABLE "{db.schema}".baofen_events IN EXCLUSIVE MODE')
        try:
            yield
        finally:
            holder.rollback()


def answered_in(client: Client, kind: str, **message: Any) -> float:
    """Seconds until ``message`` is answered by a ``kind`` message."""
    began = time.monotonic()
    client.send(**message)
    client.expect(kind, timeout=10)
    return time.monotonic() - began


# -- 1. a slow or locked database stalls only the tables that wait on it ---------------------


def test_a_locked_database_stalls_only_the_table_that_writes(db: Database) -> None:
    with serving(db, db_timeout=2.0) as live:
        waiting, other = my_turn_at_new_table(live.base), my_turn_at_new_table(live.base)
        before = waiting.snapshot()
        with locked(db):
            began = time.monotonic()
            waiting.send(type="bid", value=85, id="stuck")
            time.sleep(0.3)  # the bid waits on the lock now
            hand = other.state["observation"]["hand"]  # type: ignore[index]
            times = {
                "ping": answered_in(other, "pong", type="ping"),
                "sync": answered_in(other, "state", type="sync"),
                "check": answered_in(other, "checked", type="check", cards=hand[:1]),
                "hint": answered_in(other, "suggestion", type="hint"),
            }
            assert max(times.values()) < QUICK, times
            error = waiting.expect("error", timeout=15)
            waited = time.monotonic() - began
        assert error["code"] == "unavailable" and error["id"] == "stuck"
        assert waited < 2.0 * 3, waited  # bounded by the timeout (a statement, then the wait)
        assert waiting.snapshot() == before
        waiting.send(type="bid", value=85, id="again")
        assert waiting.expect("ack")["id"] == "again"


def test_actions_arriving_together_share_one_commit(tmp_path: Path) -> None:
    """Group commit: events of many tables queued while the writer is busy are committed in
    a few transactions; a bad write among them fails alone."""
    url = f"sqlite:///{tmp_path / 'group.db'}"
    store = Store(url)
    codes = [f"t{n}" for n in range(40)]
    for code in codes:
        store.create_table(code, {}, {}, 1)

    async def append_all(writer: AsyncStore, seq: int) -> list[BaseException | None]:
        appends = [writer.append(code, Event(seq, "next", {}), None, None) for code in codes]
        return await asyncio.gather(*appends, return_exceptions=True)

    writer = AsyncStore(store, timeout=5.0)
    try:
        assert run_async(append_all(writer, 1)) == [None] * len(codes)
        assert writer.writes == len(codes)
        assert writer.groups <= 3, (writer.writes, writer.groups)
        store.append(codes[0], Event(2, "next", {}))  # the writer's seq 2 of t0 is taken
        outcomes = run_async(append_all(writer, 2))
    finally:
        writer.close()
    assert isinstance(outcomes[0], StoreUnavailable)
    assert outcomes[1:] == [None] * (len(codes) - 1)
    reopened = Store(url)
    try:
        assert all(len(reopened.load(code).events) == 2 for code in codes)  # type: ignore[union-attr]
    finally:
        reopened.close()


def test_a_hung_commit_is_waited_for_a_bounded_time(tmp_path: Path) -> None:
    """Even a commit that hangs past the database's own timeouts ends the wait in time."""
    store = Store(f"sqlite:///{tmp_path / 'hung.db'}")
    store.create_table("t", {}, {}, 1)
    commit = store.commit

    def hang(*args: Any) -> None:
        time.sleep(1.5)
        commit(*args)

    store.commit = hang  # type: ignore[method-assign]
    writer = AsyncStore(store, timeout=0.2)

    async def append() -> float:
        began = time.monotonic()
        with pytest.raises(StoreUnavailable):
            await writer.append("t", Event(1, "start", {}), None, None)
        return time.monotonic() - began

    try:
        assert run_async(append()) < QUICK
    finally:
        writer.close()


# -- 2. table creation: rate limit, expiry, max_tables ---------------------------------------


def test_table_creation_is_rate_limited_per_address(db_url: str) -> None:
    settings = {**FAST, "create_per_minute": 1.0, "create_burst": 3.0}
    live = ThreadServer(ServerConfig(db=db_url, **settings))
    try:
        body = {"rules": RuleSet.baofen().to_dict()}
        codes = [httpx.post(f"{live.base}/api/tables", json=body).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        assert httpx.get(f"{live.base}/health").status_code == 200
    finally:
        live.stop()


def test_waiting_tables_expire_and_stay_expired(db_url: str) -> None:
    settings = ServerConfig(db=db_url, **{**FAST, "table_expiry": 0.5, "max_tables": 2})
    live = ThreadServer(settings)
    try:
        playing = my_turn_at_new_table(live.base)
        code = playing.url.rsplit("/", 1)[1]
        idle = create_table(live.base, RuleSet.baofen().to_dict())
        body = {"rules": RuleSet.baofen().to_dict()}
        assert httpx.post(f"{live.base}/api/tables", json=body).status_code == 503
        time.sleep(1.5)
        assert httpx.get(f"{live.base}/api/tables/{idle}").status_code == 404
        assert [t["code"] for t in httpx.get(f"{live.base}/api/tables").json()] == [code]
        assert httpx.get(f"{live.base}/api/tables/{code}").json()["status"] == "playing"
        fresh = create_table(live.base, RuleSet.baofen().to_dict())  # room again
        playing.close()
    finally:
        live.stop()
    time.sleep(1.0)  # the fresh table's time runs out while the server is down
    again = ThreadServer(settings)
    try:
        assert httpx.get(f"{again.base}/api/tables/{idle}").status_code == 404
        assert httpx.get(f"{again.base}/api/tables/{fresh}").status_code == 404
        assert httpx.get(f"{again.base}/api/tables/{code}").status_code == 200
    finally:
        again.stop()


# -- 3. a refusal while the database is down changes nothing ---------------------------------


def test_a_refusal_while_the_database_is_down_changes_nothing(server: ThreadServer) -> None:
    me = my_turn_at_new_table(server.base)
    code = me.url.rsplit("/", 1)[1]
    before = me.snapshot()
    public = httpx.get(f"{server.base}/api/tables/{code}").json()
    store = server.app.state.lobby.store.store

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OSError("the database is down")

    commit, load = store.commit, store.load
    store.commit = store.load = down
    try:
        me.send(type="bid", value=85, id="lost")
        assert me.expect("error")["code"] == "unavailable"
        assert me.snapshot() == before
        assert httpx.get(f"{server.base}/api/tables/{code}").json() == public
        me.send(type="hint")
        assert me.expect("suggestion")["action"] == "bid"  # still my bid to make
        me.send(type="bid", value=90)
        assert me.expect("error")["code"] == "unavailable"
        assert me.snapshot() == before
    finally:
        store.commit, store.load = commit, load
    me.send(type="bid", value=85, id="again")
    assert me.expect("ack")["id"] == "again"
    assert me.snapshot()["observation"]["bids"][0] == [0, 85]


# -- 4. listing while tables are created -----------------------------------------------------


def test_listing_while_tables_are_created(server: ThreadServer) -> None:
    statuses: list[int] = []
    creating = True
    body = {"rules": RuleSet.baofen().to_dict()}

    def create() -> None:
        with httpx.Client(base_url=server.base) as http:
            for _ in range(60):
                statuses.append(http.post("/api/tables", json=body).status_code)

    def list_() -> None:
        with httpx.Client(base_url=server.base) as http:
            while creating:
                statuses.append(http.get("/api/tables").status_code)

    creators = [threading.Thread(target=create) for _ in range(4)]
    listers = [threading.Thread(target=list_) for _ in range(3)]
    for thread in creators + listers:
        thread.start()
    for thread in creators:
        thread.join()
    creating = False
    for thread in listers:
        thread.join()
    assert set(statuses) == {200, 201}, sorted(set(statuses))
    assert len(httpx.get(f"{server.base}/api/tables").json()) == 240


# -- 5. a bad message id -----------------------------------------------------------------------


def alive(client: Client) -> None:
    client.send(type="ping", id="alive")
    assert client.expect("pong")["id"] == "alive"


def test_a_bad_id_is_answered_and_the_connection_stays(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen().to_dict())
    client = Client(server.base, code)
    client.send(type="ping", id="x" * 65)
    error = client.expect("error")
    assert error["code"] == "invalid_message" and error["id"] is None
    alive(client)
    for frame in ('{"type": "ping", "id": "\\ud800"}',
                  '{"type": "join", "seat": 0, "name": "\\udfff", "id": 7}'):
        client.send_raw(frame)
        error = client.expect("error")
        assert error["code"] == "invalid_message", error
        alive(client)
    client.send(type="join", seat=0, name="\U0001f0cf ok")  # a real pair is fine
    assert client.expect("joined")["name"] == "\U0001f0cf ok"


def test_rate_limited_echoes_the_id(db_url: str) -> None:
    live = ThreadServer(ServerConfig(
        db=db_url, **{**FAST, "rate_per_second": 0.5, "rate_burst": 2.0}
    ))
    try:
        client = Client(live.base, create_table(live.base, RuleSet.baofen().to_dict()))
        for ident in ("a", "b", "c"):
            client.send(type="ping", id=ident)
        answers = [client.recv() for _ in range(3)]
        assert [a["type"] for a in answers] == ["pong", "pong", "error"]
        assert answers[2]["code"] == "rate_limited" and answers[2]["id"] == "c"
    finally:
        live.stop()


# -- 6. REST inputs that answered 500 ----------------------------------------------------------


def test_out_of_range_numbers_and_lone_surrogates(db: Database) -> None:
    with serving(db) as live:
        code = create_table(live.base, RuleSet.baofen().to_dict())
        with httpx.Client(base_url=live.base) as http:
            for number in (0, -1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**30):
                for path in (f"hands/{number}", f"hands/{number}/replay"):
                    answer = http.get(f"/api/tables/{code}/{path}")
                    assert answer.status_code in (404, 422), (path, answer.text)
            for body in ('{"rules": {"variant": "\\ud800"}}',
                         '{"settings": {"\\udc00": 1}}',
                         '{"rules": {"hands": 1}, "settings": {"private": "\\ud800"}}'):
                answer = http.post(
                    "/api/tables", content=body, headers={"content-type": "application/json"}
                )
                assert answer.status_code == 422, (body, answer.text)
            assert http.get("/health").status_code == 200


# -- 7. half-open connections ------------------------------------------------------------------


def half_open(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send part of a request and never the rest."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        sockets.append(sock)
    return sockets


def closed_by_server(sock: socket.socket, timeout: float) -> bool:
    sock.settimeout(timeout)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_half_open_connections_time_out(db_url: str) -> None:
    port = free_port()
    live = ProcessServer(db_url, port, {"BAOFEN_HANDSHAKE_TIMEOUT": "2"})
    sockets: list[socket.socket] = []
    try:
        sockets = half_open(port, 300)
        began = time.monotonic()
        assert httpx.get(f"{live.base}/health", timeout=5).status_code == 200
        assert time.monotonic() - began < QUICK
        assert all(closed_by_server(sock, 10) for sock in sockets)
        assert httpx.get(f"{live.base}/health", timeout=5).status_code == 200
    finally:
        for sock in sockets:
            sock.close()
        live.stop()


def test_connections_are_capped(db_url: str) -> None:
    port = free_port()
    env = {"BAOFEN_HANDSHAKE_TIMEOUT": "2", "BAOFEN_MAX_CONNECTIONS": "20"}
    live = ProcessServer(db_url, port, env)
    sockets: list[socket.socket] = []
    try:
        sockets = half_open(port, 40)
        assert httpx.get(f"{live.base}/health", timeout=5).status_code == 503
        assert all(closed_by_server(sock, 10) for sock in sockets)
        assert httpx.get(f"{live.base}/health", timeout=5).status_code == 200
    finally:
        for sock in sockets:
            sock.close()
        live.stop()


def test_a_websocket_outlives_the_handshake_timeout(db_url: str) -> None:
    port = free_port()
    live = ProcessServer(db_url, port, {"BAOFEN_HANDSHAKE_TIMEOUT": "1"})
    try:
        client = Client(live.base, create_table(live.base, RuleSet.baofen().to_dict()))
        time.sleep(2)
        alive(client)
        assert json.loads(httpx.get(f"{live.base}/health").text)["status"] == "ok"
    finally:
        live.stop()
