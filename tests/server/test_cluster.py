"""Cluster mode: nodes in subprocesses on loopback, on PostgreSQL and Redis.

Players connect to different nodes; the node that owns a table is killed, frozen, or loses
Redis, and the match goes on: every acknowledged action is in the stored log, every state any
player saw at a version agrees with every other, and the records replay. A read of another
node's table is answered from what its owner published; deleting an account on one node
anonymises its seats at the tables other nodes own."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from baofen import Hand, RuleSet
from baofen.accounts.usernames import DELETED_NAME
from baofen.server import ServerConfig
from baofen.server.cluster import node as cluster_node
from baofen.server.cluster.bus import Bus
from baofen.store import Event, Store
from baofen.store.async_store import AsyncStore, StoreFenced
from baofen.store.database import Fenced, event_appended, fenced
from baofen.wire.actions import action_message, read_action_record

from .accounts import PASSWORD, session, sign_up
from .cluster import (
    LEASE,
    SHARED_REDIS,
    Cluster,
    Roaming,
    one_history,
    own_redis,
    play,
    read_eventually,
    running,
    stored_log,
)
from .databases import Database, database
from .harness import (
    FAST,
    TIMEOUT,
    Client,
    ThreadServer,
    create_table,
    free_port,
    start_with_bots,
    to_act,
)
from .leaks import card_strings, check_no_leak


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """SQLite, then PostgreSQL."""
    yield from database(request.param, tmp_path)


def test_a_stale_fencing_number_cannot_write(any_db: Database) -> None:
    """The store's side of fencing: once a newer number is claimed, the older one's writes
    are refused, alone (the others committed with them land)."""
    store = Store(any_db.url, any_db.schema)
    try:
        for code in ("t", "u"):
            store.create_table(code, {}, {}, 1)
            assert store.claim(code, 1) is None
        assert store.claim("t", 1) == 1  # not above the number claimed
        assert store.claim("nowhere", 1) == 0
        store.commit([fenced("t", 1, event_appended("t", Event(1, "start", {})))])
        assert store.claim("t", 3) is None
        with pytest.raises(Fenced):
            store.commit([fenced("t", 1, event_appended("t", Event(2, "next", {})))])

        async def both(writer: AsyncStore) -> list[BaseException | None]:
            appends = [writer.append(c, Event(s, "next", {}), None, None)
                       for c, s in (("t", 2), ("u", 1))]
            return await asyncio.gather(*appends, return_exceptions=True)

        writer = AsyncStore(store, timeout=5.0, fences={"t": 1, "u": 1})
        outcomes = asyncio.run(both(writer))
        assert isinstance(outcomes[0], StoreFenced) and outcomes[1] is None
        assert [len(store.load(c).events) for c in ("t", "u")] == [1, 1]  # type: ignore[union-attr]
        writer.close()
    finally:
        store.close()


def seat_players(cluster: Cluster, rules: RuleSet, nodes: list[int]) -> tuple[str, list[Roaming]]:
    """A table created on node 0 with player ``seat`` connected to node ``nodes[seat]``,
    started."""
    code = create_table(cluster.bases[0], rules.to_dict(), timer=None)
    players = [Roaming(cluster, node, code, seat, rules) for seat, node in enumerate(nodes)]
    players[0].client.send(type="start")
    return code, players


def owner(cluster: Cluster, code: str) -> int:
    """Index of the node that owns the table now (from the node it names)."""
    for base in cluster.live():
        node = httpx.get(f"{base}/api/tables/{code}").json()["node"]
        if node is not None:
            return int(node.removeprefix("n"))
    raise AssertionError("no node owns the table")


def check_log(db: Database, code: str, players: list[Roaming]) -> list[dict[str, Any]]:
    """Every acknowledged action is in the stored log at its version; the hand records
    replay. The records."""
    events = stored_log(db, code)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    for player in players:
        for version, message in player.acked.items():
            entry = events[version - 1]
            assert entry.kind == "action", (version, entry)
            stored = read_action_record(entry.payload)
            assert stored.seat == player.client.seat
            replayed = action_message(stored.to_action()).model_dump(mode="json", exclude={"id"})
            assert replayed == message, (version, replayed, message)
    records: list[dict[str, Any]] = httpx.get(
        f"{players[-1].cluster.live()[0]}/api/tables/{code}/records"
    ).json()
    for record in records:
        assert Hand.from_record(record).phase == "done"
    return records


def mid_trick(players: list[Roaming]) -> bool:
    """True once a trick is being played (some, not all, of its cards are down)."""
    state = players[0].client.state
    observation = state and state["observation"]
    return bool(observation and observation["phase"] == "playing"
                and observation["current_trick"])


def test_four_players_on_three_nodes_play_a_match(db: Database) -> None:
    rules = RuleSet.create(variant="baofen", hands=2)
    with running(db, 3) as cluster:
        code, players = seat_players(cluster, rules, [0, 1, 2, 1])
        play(players)
        history = one_history(players)
        assert max(history) == len(stored_log(db, code))
        records = check_log(db, code, players)
        assert len(records) == 2
        assert sum(len(p.acked) for p in players) == sum(len(r["actions"]) for r in records)
        assert all(p.moves == 0 for p in players)
        info = read_eventually(cluster.bases[2], code, lambda i: i["status"] == "finished")
        assert info["node"] == "n0"
        for state in players[1].states:
            assert state["table"]["node"] == "n0"


def test_the_lobby_lists_every_nodes_tables(db: Database) -> None:
    with running(db, 2) as cluster:
        codes = [create_table(base, RuleSet.baofen().to_dict()) for base in cluster.bases]
        deadline = time.monotonic() + 3 * LEASE
        while True:
            listed = [{t["code"]: t["node"] for t in httpx.get(f"{b}/api/tables").json()}
                      for b in cluster.bases]
            if all(listing == dict(zip(codes, ["n0", "n1"], strict=True))
                   for listing in listed):
                break
            assert time.monotonic() < deadline, listed
            time.sleep(0.1)


def test_no_leak_through_a_node_that_does_not_own_the_table(db: Database) -> None:
    with running(db, 2) as cluster:
        check_no_leak(cluster.bases[0], cluster.bases[1], "hongwu")


def test_an_account_takes_its_seat_back_through_another_node(db: Database) -> None:
    """The account signed in on a relaying node's handshake reaches the owner with the client:
    its seat is bound there, taken back through a third node, and refused to another account."""
    with running(db, 3) as cluster:
        ann, bob = sign_up(cluster.bases[0], "Ann"), sign_up(cluster.bases[0], "Bob")
        code = create_table(cluster.bases[0], RuleSet.baofen(hands=1).to_dict(), timer=None)
        laptop = Client(cluster.bases[1], code, session(ann))  # relayed to n0
        joined = laptop.join(0, "x")
        assert joined["name"] == "Ann"
        intruder = Client(cluster.bases[2], code, session(bob))
        intruder.send(type="reclaim", token=joined["token"])
        assert intruder.expect("error")["code"] == "wrong_account"
        phone = Client(cluster.bases[2], code, session(ann))
        phone.send(type="reclaim")
        back = phone.expect("joined")
        assert (back["seat"], back["name"]) == (0, "Ann")
        seat = lambda info: (info["seats"][0]["name"], info["seats"][0]["account"])  # noqa: E731
        read_eventually(cluster.bases[1], code, lambda info: seat(info) == ("Ann", True))


def test_failed_sign_ins_count_on_every_node(db: Database) -> None:
    """The sign-in limit is the cluster's, not each node's: more nodes give no more tries."""
    with running(db, 2) as cluster:
        sign_up(cluster.bases[0], "Ann")
        wrong = {"username": "Ann", "password": "not the password"}
        for attempt in range(5):  # the limit: 5 failures a window, spread over both nodes
            answer = httpx.post(f"{cluster.bases[attempt % 2]}/api/login", json=wrong)
            assert answer.status_code == 401, answer.text
        for base in cluster.bases:
            answer = httpx.post(f"{base}/api/login", json={**wrong, "password": PASSWORD})
            assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 0


def test_a_dead_nodes_table_is_taken_without_a_client_asking(db: Database) -> None:
    with running(db, 2) as cluster:
        code = create_table(cluster.bases[0], RuleSet.baofen().to_dict())
        assert httpx.get(f"{cluster.bases[1]}/api/tables/{code}").json()["node"] == "n0"
        cluster.nodes[0].kill()
        deadline = time.monotonic() + 10 * LEASE
        while httpx.get(f"{cluster.bases[1]}/api/tables/{code}").json()["node"] != "n1":
            assert time.monotonic() < deadline, "nobody took the dead node's table"
            time.sleep(0.2)


def test_the_owner_killed_mid_trick(db: Database) -> None:
    rules = RuleSet.create(variant="baofen", hands=2)
    with running(db, 3) as cluster:
        code, players = seat_players(cluster, rules, [0, 1, 2, 0])
        play(players, until=lambda: mid_trick(players))
        acked = sum(len(p.acked) for p in players)
        cluster.nodes[owner(cluster, code)].kill()
        began = time.monotonic()
        play(players, until=lambda: all(p.moves for p in players))
        moved = time.monotonic() - began
        assert owner(cluster, code) != 0
        play(players)
        assert moved < 10 * LEASE, moved  # within a few leases, even on a loaded machine
        assert sum(len(p.acked) for p in players) > acked
        one_history(players)
        assert len(check_log(db, code, players)) == 2


def test_a_frozen_owner_cannot_write_when_it_wakes(db: Database) -> None:
    rules = RuleSet.create(variant="baofen", hands=1)
    with running(db, 3) as cluster:
        code, players = seat_players(cluster, rules, [0, 1, 2, 1])
        first = players[0]  # on the owner
        others = players[1:]
        # Play until seat 0 is to act mid-hand, and hold it there.
        play(players, until=lambda: mid_trick(players))
        first.hold = True
        play(players, until=lambda: to_act(first.client.state) == 0 and not first.seated._sent)
        first.hold = False
        version = first.client.state["table"]["version"]  # type: ignore[index]
        frozen = cluster.nodes[0]
        os.kill(frozen.process.pid, signal.SIGSTOP)
        try:
            # While it is frozen: its lease runs out, another node takes the table; seat 0 is
            # away there, so the computer plays it; meanwhile seat 0 acts on the frozen node.
            first.seated.act(first.client.state)  # type: ignore[arg-type]
            play(others, until=lambda: max(p.states[-1]["table"]["version"]
                                           for p in others) > version + 2)
        finally:
            os.kill(frozen.process.pid, signal.SIGCONT)
        play(players)
        assert first.moves >= 1  # the woken node let go of the table: seat 0 moved
        assert version + 1 not in first.acked
        events = stored_log(db, code)
        assert events[version].kind == "away"  # the new owner's, not the frozen node's action
        one_history(players)
        check_log(db, code, players)


def test_redis_restarts_mid_hand(db: Database) -> None:
    rules = RuleSet.create(variant="baofen", hands=1)
    process, port = own_redis(free_port())
    url = f"redis://127.0.0.1:{port}/0"
    cluster = Cluster(db, url)
    try:
        cluster.start(2)
        code, players = seat_players(cluster, rules, [0, 1, 1, 0])
        play(players, until=lambda: mid_trick(players))
        process.kill()
        process.wait()
        time.sleep(0.2)
        process, _ = own_redis(port)
        play(players)
        one_history(players)
        check_log(db, code, players)
        assert all(p.moves <= 1 for p in players)  # at most one reconnection: a resync
    finally:
        cluster.stop()
        process.kill()
        process.wait()


def test_a_deleted_account_is_forgotten_at_another_nodes_table(db: Database) -> None:
    """Deleting an account on one node anonymises its seat at a table another node owns."""
    with running(db, 2) as cluster:
        owner, other = cluster.bases
        ann = sign_up(other, "Ann")
        code = create_table(owner, RuleSet.baofen(hands=1).to_dict(), timer=None)
        seated = Client(owner, code, session(ann))
        assert seated.join(0, "x")["name"] == "Ann"
        response = ann.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert response.status_code == 204
        deadline = time.monotonic() + TIMEOUT
        while (seat := httpx.get(f"{owner}/api/tables/{code}").json()["seats"][0])["name"] != (
            DELETED_NAME
        ):
            assert time.monotonic() < deadline, seat
            time.sleep(0.1)
        assert seat["account"] is False
        seated.close()


def test_another_nodes_table_is_read_from_what_its_owner_published(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: every read of another node's table loaded its whole log from the database and
    replayed it once per version (12 answers/s against 126 for a node's own table, and the
    reading node's pings rose). Now the owner publishes its tables' information as it
    changes, and another node answers from that: no database read, no replay, the owner's
    information exactly (never a card), naming the owner; a private table too, never listed.
    A table no longer published (finished) is rebuilt from the stored log, once."""
    rebuilt: list[str] = []
    loaded: list[str] = []
    restore, load = cluster_node.Table.restore, AsyncStore.load

    def counted(stored: Any, *args: Any) -> Any:
        rebuilt.append(stored.code)
        return restore(stored, *args)

    async def counted_load(self: AsyncStore, code: str) -> Any:
        loaded.append(code)
        return await load(self, code)

    monkeypatch.setattr(cluster_node.Table, "restore", counted)
    monkeypatch.setattr(AsyncStore, "load", counted_load)
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    settings = ServerConfig(db=db.url, db_schema=db.schema, redis=SHARED_REDIS,
                              redis_prefix=prefix, **FAST)
    owner, reader = (ThreadServer(settings.model_copy(update={"node": f"n{n}"}))
                     for n in range(2))
    try:
        me, code = start_with_bots(owner.base, RuleSet.baofen(hands=1))
        private = create_table(owner.base, RuleSet.baofen().to_dict(), private=True)
        # The first reads wait for the owner's first publication (a table read before it is
        # ever published is rebuilt from the database, as a finished one is).
        published = redis.Redis.from_url(SHARED_REDIS)
        deadline = time.monotonic() + TIMEOUT
        while not all(published.hexists(f"{prefix}tables", table) for table in (code, private)):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        published.close()
        for table in (code, private):
            url = f"{reader.base}/api/tables/{table}"
            deadline = time.monotonic() + TIMEOUT
            # Published within a tenth of a second of each change; the bots may still move.
            while (first := httpx.get(url).json()) != httpx.get(
                    f"{owner.base}/api/tables/{table}").json():
                assert time.monotonic() < deadline, first
                time.sleep(0.05)
            reads = [httpx.get(url).json() for _ in range(20)]
            assert first["node"] == "n0" and first["code"] == table
            assert all(read["version"] >= first["version"] for read in reads)
            assert list(card_strings(reads)) == []  # the bidding: no card is public yet
        assert rebuilt == [] and loaded == []  # not one read of the database
        listed = {t["code"] for base in (owner.base, reader.base)
                  for t in httpx.get(f"{base}/api/tables").json()}
        assert code in listed and private not in listed
        me.send(type="auto", on=True)  # the computer plays the hand out for me
        deadline = time.monotonic() + 60
        while httpx.get(f"{owner.base}/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        deadline = time.monotonic() + TIMEOUT
        while (last := httpx.get(f"{reader.base}/api/tables/{code}").json())["status"] != (
                "finished"):
            assert time.monotonic() < deadline, last
            time.sleep(0.1)
        before = len(rebuilt)
        again = [httpx.get(f"{reader.base}/api/tables/{code}").json() for _ in range(5)]
        assert all(read["status"] == "finished" for read in again)
        assert len(rebuilt) <= before + 1  # once unlisted: from the stored log, once
        me.close()
    finally:
        owner.stop()
        reader.stop()


def test_a_frame_lost_on_its_way_to_the_owner_is_sent_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pub/sub loses what is published to a subscriber whose connection died before Redis
    noticed (a node cut from Redis), and a relayed client's frames to the owner were never
    sent again: a 继续 (ready) lost so left its table waiting for the ready timer after a
    heal. Now the relay numbers the client's frames and the owner asks for those missing (at
    a gap, or after it subscribed again)."""
    dropped: list[bytes] = []
    deliver = Bus._deliver

    def lossy(self: Bus, data: bytes) -> None:
        if not dropped and data.startswith(b"msg ") and b'"join"' in data:
            dropped.append(data)  # lost on its way
            return
        deliver(self, data)

    monkeypatch.setattr(Bus, "_deliver", lossy)
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    settings = ServerConfig(db=db.url, db_schema=db.schema, redis=SHARED_REDIS,
                              redis_prefix=prefix, **FAST)
    owner, relaying = (ThreadServer(settings.model_copy(update={"node": f"n{n}"}))
                       for n in range(2))
    try:
        code = create_table(owner.base, RuleSet.baofen(hands=1).to_dict(), timer=None)
        ann = Client(relaying.base, code)
        ann.send(type="join", seat=1, name="Ann")
        ann.send(type="sync")  # the next frame shows the gap
        assert ann.expect("joined", timeout=10)["seat"] == 1
        assert dropped  # the join was lost once, and came again
        seats = httpx.get(f"{owner.base}/api/tables/{code}").json()["seats"]
        assert [seat["name"] for seat in seats] == [None, "Ann", None, None]
        ann.close()
    finally:
        owner.stop()
        relaying.stop()


def test_a_removed_member_stops_watching_on_every_node(db: Database) -> None:
    """A member removed on one node: their connection watching a club table another node
    serves is closed there (4403)."""
    with running(db, 2) as cluster:
        first, second = cluster.bases
        owner, bob = sign_up(first, "Owner"), sign_up(first, "Bob")
        made = owner.post("/api/clubs", json={"name": "周六包分"})
        assert made.status_code == 201, made.text
        club = made.json()["id"]
        link = owner.post(f"/api/clubs/{club}/invitations", json={}).json()
        assert bob.post(f"/api/club-invitations/{link['code']}").json()["member"]
        on_second = httpx.Client(base_url=second, cookies=owner.cookies)
        code = on_second.post(f"/api/clubs/{club}/tables", json={}).json()["code"]
        watching = Client(second, code, session(bob))
        watching.send(type="watch")
        assert watching.recv()["type"] == "joined"
        assert owner.delete(f"/api/clubs/{club}/members/Bob").status_code == 204
        with pytest.raises(Exception):  # noqa: B017 — the socket is closed by the server
            while True:
                watching.recv(timeout=5)
        assert watching.ws.close_code == 4403
