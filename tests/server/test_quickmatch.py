"""匹配 (quick match): players are seated together as they come, four at once or with the
computer after the wait, never two of one address or browser at a table; cancelling, stale
tickets, hostile input; a table rated only with accounts in every seat, a seat token handed out
once; and the Redis line shared by two server processes."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.sync.client import connect

from baofen.server import ServerConfig
from baofen.server.cluster import match_line
from baofen.server.cluster.match_line import RedisQueue
from baofen.server.quickmatch import line as memory_line
from baofen.server.quickmatch.line import MatchQueue, MemoryQueue, Waiting
from baofen.store.accounts import Account

from .cluster import read_eventually
from .harness import FAST, TIMEOUT, Client, ProcessServer, ThreadServer, free_port, run_async

REDIS_DB = 9
"""The Redis database these tests use; every key they make is under a prefix of their own."""
REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DB}"
SERVER_PREFIX = "baofen:match:"
"""The prefix a server's line uses (server processes cannot be given another)."""


CLIENTS = itertools.count(1)
"""Numbers of the clients asking: each ask comes from an address of its own."""


def ask(
    base: str, variant: str = "baofen", name: str = "", address: str | None = None
) -> dict[str, Any]:
    """A ticket asked for by a client at ``address`` (through the server's trusted proxy, the
    loopback; by default, a client of its own)."""
    n = next(CLIENTS)
    address = address or f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
    response = httpx.post(f"{base}/api/match", json={"variant": variant, "name": name},
                          headers={"X-Forwarded-For": address})
    assert response.status_code == 201, response.text
    ticket: dict[str, Any] = response.json()
    return ticket


def poll(base: str, ticket: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/match/{ticket}")
    assert response.status_code == 200, response.text
    news: dict[str, Any] = response.json()
    return news


def until_seated(base: str, ticket: str) -> dict[str, Any]:
    """Poll about every tenth of a second (as the browser does each second) until seated."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        news = poll(base, ticket)
        if news["status"] != "waiting":
            return news
        time.sleep(0.1)
    raise AssertionError("the ticket was not seated")


def reclaimed(base: str, news: dict[str, Any]) -> dict[str, Any]:
    """Connect to the ticket's table with its seat token; the first state."""
    client = Client(base, news["code"])
    client.send(type="reclaim", token=news["token"])
    assert client.expect("joined")["seat"] == news["seat"]
    state = client.expect("state")
    client.close()
    return state


@pytest.fixture
def quick(db_url: str) -> Iterator[ThreadServer]:
    """A server whose quick match waits half a second for players."""
    live = ThreadServer(ServerConfig(db=db_url, match_wait_seconds=0.5, **FAST))
    yield live
    live.stop()


def test_four_players_are_seated_together_at_once(server: ThreadServer) -> None:
    first = [ask(server.base, "hongwu", f"P{n}") for n in range(3)]
    assert [t["status"] for t in first] == ["waiting"] * 3
    assert poll(server.base, first[0]["ticket"])["waiting_players"] == 3
    assert 0 < first[0]["seconds_left"] <= 20
    last = ask(server.base, "hongwu", "P3")  # the fourth: the table starts now
    assert last["status"] == "seated" and last["seat"] == 3
    seated = [poll(server.base, t["ticket"]) for t in first] + [last]
    assert {n["code"] for n in seated} == {last["code"]}
    assert [n["seat"] for n in seated] == [0, 1, 2, 3]  # as they came
    assert len({n["token"] for n in seated}) == 4
    state = reclaimed(server.base, seated[1])
    table = state["table"]
    assert table["status"] == "playing" and table["rules"]["variant"] == "hongwu"
    assert table["settings"]["private"]
    assert not table["settings"]["rated"]  # guests: not rated
    assert [s["name"] for s in table["seats"]] == ["P0", "P1", "P2", "P3"]
    assert httpx.get(f"{server.base}/api/tables").json() == []  # private: not listed


def test_after_the_wait_the_computer_fills_the_empty_seats(quick: ThreadServer) -> None:
    tickets = [ask(quick.base, name=name) for name in ("Ann", "Bo")]
    other_game = ask(quick.base, "hongwu", "Cy")  # another line: not seated with them
    news = [until_seated(quick.base, t["ticket"]) for t in tickets]
    assert news[0]["code"] == news[1]["code"] and [n["seat"] for n in news] == [0, 1]
    seats = reclaimed(quick.base, news[0])["table"]["seats"]
    assert [(s["kind"], s["bot_level"]) for s in seats] == [
        ("human", None), ("human", None), ("bot", "normal"), ("bot", "normal")
    ]
    alone = until_seated(quick.base, other_game["ticket"])
    assert alone["code"] not in {news[0]["code"]}
    assert [s["kind"] for s in reclaimed(quick.base, alone)["table"]["seats"]] == [
        "human", "bot", "bot", "bot"
    ]


def test_a_player_without_a_name_gets_a_readable_one(quick: ThreadServer) -> None:
    news = until_seated(quick.base, ask(quick.base)["ticket"])
    name = reclaimed(quick.base, news)["table"]["seats"][0]["name"]
    assert name.startswith("玩家") and name[2:].isdigit()


def test_cancel(server: ThreadServer) -> None:
    base = server.base
    ticket = ask(base)["ticket"]
    cancelled = httpx.delete(f"{base}/api/match/{ticket}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert poll(base, ticket)["status"] == "cancelled"
    assert httpx.delete(f"{base}/api/match/{ticket}").json()["status"] == "cancelled"
    others = [ask(base)["ticket"] for _ in range(3)]
    assert poll(base, others[0])["waiting_players"] == 3  # the cancelled one is not counted
    seated = ask(base)
    assert seated["status"] == "seated"
    refused = httpx.delete(f"{base}/api/match/{seated['ticket']}")
    assert refused.status_code == 409 and seated["code"] in refused.json()["detail"]
    assert poll(base, seated["ticket"])["status"] == "seated"  # nothing changed


@pytest.mark.parametrize(("method", "path", "body", "code"), [
    ("GET", "/api/match/nosuchticket", None, 404),
    ("DELETE", "/api/match/nosuchticket", None, 404),
    ("GET", "/api/match/" + "x" * 65, None, 422),
    ("GET", "/api/match/bad%20ticket", None, 422),
    ("POST", "/api/match", {"variant": "bridge"}, 422),
    ("POST", "/api/match", {"name": "x" * 25}, 422),
    ("POST", "/api/match", {"name": "Ann", "seat": 0}, 422),
    ("POST", "/api/match", {"name": 5}, 422),
])
def test_hostile_requests_are_refused(
    server: ThreadServer, method: str, path: str, body: Any, code: int
) -> None:
    response = httpx.request(method, server.base + path, json=body)
    assert response.status_code == code, response.text
    waiting = ask(server.base)
    assert waiting["waiting_players"] == 1  # nothing was queued by the refused request


def account(n: int) -> Account:
    return Account(n, f"player{n}", datetime(2026, 12, 1, n % 24, tzinfo=UTC))


async def _stale_line(queue: MatchQueue, variant: Any) -> None:
    await queue.put(Waiting("gone", variant, "Gone"))
    await asyncio.sleep(0.2)
    await queue.put(Waiting("here", variant, "Here"))
    assert await queue.take(variant, wait=60, stale=0.1) == []  # "gone" leaves; not time yet
    gone = await queue.state("gone")
    assert gone is not None and gone.status == "cancelled"
    here = await queue.state("here")
    assert here is not None and (here.status, here.waiting_players) == ("waiting", 1)
    group = await queue.take(variant, wait=0, stale=0.1)
    assert [w.ticket for w in group] == ["here"]
    assert await queue.cancel("here") is False  # taken: no longer waiting
    await asyncio.sleep(0.2)  # nobody seats it (the process making the table died)
    taken = await queue.state("here")
    assert taken is not None and taken.status == "cancelled"


@pytest.fixture
def short_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ticket taken but not seated is cancelled after 0.1 s (instead of 30)."""
    monkeypatch.setattr(memory_line, "STARTING_SECONDS", 0.1)
    monkeypatch.setattr(match_line, "STARTING_SECONDS", 0.1)


@pytest.mark.usefixtures("short_start")
def test_a_ticket_nobody_asks_about_leaves_the_line() -> None:
    run_async(_stale_line(MemoryQueue(), "baofen"))


# -- Redis: one line for several server processes -------------------------------------------


def _clear(prefix: str) -> None:
    """Delete this test's keys (and only them) from the Redis database."""
    with redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix no one else uses, cleared afterwards."""
    prefix = f"test-quickmatch-{random.getrandbits(48):x}:"
    yield prefix
    _clear(prefix)


@pytest.mark.usefixtures("short_start")
def test_the_redis_line_keeps_the_same_rules(redis_prefix: str) -> None:
    async def run() -> None:
        queue = RedisQueue(REDIS_URL, redis_prefix)
        try:
            await _stale_line(queue, "hongwu")
        finally:
            await queue.close()

    run_async(run())


def test_concurrent_takes_from_redis_never_share_a_player(redis_prefix: str) -> None:
    """Ten takers on ten connections race for 22 waiting players: every player is taken
    exactly once, in groups of four, and the two left over still wait."""

    async def run() -> None:
        queues = [RedisQueue(REDIS_URL, redis_prefix) for _ in range(10)]
        try:
            for n in range(22):
                await queues[n % 10].put(Waiting(f"t{n}", "baofen", f"P{n}", account(n)))
            groups = await asyncio.gather(*(q.take("baofen", 60, 60) for q in queues))
            taken = [w.ticket for group in groups for w in group]
            assert sorted(map(len, groups)) == [0] * 5 + [4] * 5
            assert len(taken) == len(set(taken)) == 20
            assert all(w.account == account(int(w.ticket[1:])) for g in groups for w in g)
            left = await queues[0].state("t21")
            assert left is not None and (left.status, left.waiting_players) == ("waiting", 2)
        finally:
            for queue in queues:
                await queue.close()

    run_async(run())


def test_two_server_processes_seat_their_players_together(tmp_path: Path) -> None:
    """Two players ask on one server process and two on another; one table seats all four.
    (The processes keep tables in separate databases: the table lives on the process that
    took the group, the players' own processes tell them where, and the other process answers
    a read of it from what its owner published.)"""
    _clear(SERVER_PREFIX)
    env = {"BAOFEN_REDIS": REDIS_URL, "BAOFEN_MATCH_WAIT_SECONDS": "30"}
    servers = [ProcessServer(f"sqlite:///{tmp_path / f'node{n}.db'}", free_port(), env)
               for n in range(2)]
    try:
        a, b = (s.base for s in servers)
        tickets = [(a, ask(a, name="A1")), (b, ask(b, name="B1")), (a, ask(a, name="A2"))]
        assert poll(b, tickets[1][1]["ticket"])["waiting_players"] == 3
        last = ask(b, name="B2")
        news = [poll(base, t["ticket"]) for base, t in tickets] + [last]
        assert all(n["status"] == "seated" for n in news)
        assert {n["code"] for n in news} == {last["code"]}
        assert [n["seat"] for n in news] == [0, 1, 2, 3]
        home = b  # the fourth player's request took the group, on its own process
        # The other process answers from what the owner published: up to 0.1 s behind.
        elsewhere = read_eventually(a, last["code"], lambda info: "code" in info)
        assert elsewhere["code"] == last["code"]
        assert [s["name"] for s in elsewhere["seats"]] == ["A1", "B1", "A2", "B2"]
        state = reclaimed(home, news[0])
        assert [s["name"] for s in state["table"]["seats"]] == ["A1", "B1", "A2", "B2"]
    finally:
        for server in servers:
            server.stop()
        _clear(SERVER_PREFIX)


def signed_in(base: str, username: str) -> httpx.Client:
    """An HTTP client with a new account's session cookie."""
    client = httpx.Client(base_url=base)
    response = client.post("/api/accounts", json={"username": username, "password": "p" * 12})
    assert response.status_code == 201, response.text
    return client


def test_a_signed_in_player_is_seated_under_the_account(server: ThreadServer) -> None:
    """The seat is bound to the account (and named after it, whatever name was asked); an
    account that asks twice (two tabs) gets one seat, which both tickets lead to."""
    ann = signed_in(server.base, "Matcher")
    first = ann.post("/api/match", json={"name": "Not me"}).json()
    again = ann.post("/api/match", json={}).json()
    assert again["waiting_players"] == 2
    guests = [ask(server.base, name=f"G{n}") for n in range(2)]
    news = [ann.get(f"/api/match/{t['ticket']}").json() for t in (first, again)]
    ann.close()
    assert news[0]["status"] == "seated" and news[0] == {**news[1], "ticket": news[0]["ticket"]}
    seated = [poll(server.base, t["ticket"]) for t in guests]
    assert [n["seat"] for n in seated] == [1, 2]
    state = reclaimed(server.base, seated[0])
    seats = state["table"]["seats"]
    assert [s["name"] for s in seats[:3]] == ["Matcher", "G0", "G1"]
    assert seats[3]["kind"] == "bot"  # the fourth ticket was the account's second
    # bound to the account: a connection signed in as Matcher takes seat 0 back without a token
    url = server.base.replace("http", "ws", 1) + f"/ws/tables/{news[0]['code']}"
    cookie = f"baofen_session={ann.cookies['baofen_session']}"
    with connect(url, additional_headers={"Cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "reclaim"}))
        joined = json.loads(ws.recv(timeout=TIMEOUT))
    assert (joined["type"], joined["seat"], joined["name"]) == ("joined", 0, "Matcher")


def test_a_table_with_a_guest_is_not_rated(quick: ThreadServer) -> None:
    guest = until_seated(quick.base, ask(quick.base, name="Guest")["ticket"])
    assert not reclaimed(quick.base, guest)["table"]["settings"]["rated"]
    ann = signed_in(quick.base, "Annmatch")
    ticket = ann.post("/api/match", json={}).json()["ticket"]
    seated = until_seated(quick.base, ticket)
    assert reclaimed(quick.base, seated)["table"]["settings"]["rated"]  # only accounts: rated


def test_a_seat_token_is_handed_out_once(quick: ThreadServer) -> None:
    ticket = ask(quick.base, name="Once")["ticket"]
    seated = until_seated(quick.base, ticket)
    assert seated["status"] == "seated" and seated["token"]
    again = poll(quick.base, ticket)
    assert again["status"] == "seated" and again["code"] == seated["code"]
    assert again["token"] is None  # once, not to whoever polls
    assert reclaimed(quick.base, seated)["table"]["seats"][0]["name"] == "Once"


def test_two_tickets_of_one_address_never_share_a_table(db_url: str) -> None:
    """同IP禁止同桌: one client holding three tickets is not seated with the next player as
    the three defenders; each of its tickets gets a table of its own."""
    live = ThreadServer(ServerConfig(db=db_url, match_wait_seconds=2, **FAST))
    try:
        squatter = [ask(live.base, name=f"S{n}", address="10.200.0.1") for n in range(3)]
        honest = ask(live.base, name="Honest", address="10.200.0.2")
        assert honest["status"] == "waiting"  # four tickets, but two clients
        news = [until_seated(live.base, t["ticket"]) for t in [*squatter, honest]]
        assert all(n["status"] == "seated" for n in news)
        assert len({n["code"] for n in news[:3]}) == 3  # the squatter's tickets, apart
        seats = reclaimed(live.base, news[3])["table"]["seats"]
        assert [s["name"] for s in seats[:2]] == ["S0", "Honest"]
        assert [s["kind"] for s in seats[2:]] == ["bot", "bot"]
    finally:
        live.stop()


async def _one_per_address(queue: MatchQueue, variant: Any) -> None:
    guests = [Waiting(f"s{n}", variant, f"S{n}", None, "10.0.0.1", "B1") for n in range(3)]
    tabs = [Waiting(f"a{n}", variant, "Ann", account(1), "10.0.0.2") for n in range(2)]
    for waiting in [*guests, *tabs, Waiting("b", variant, "Bo", None, "10.0.0.3"),
                    Waiting("c", variant, "Cy", None, "10.0.0.2"),
                    Waiting("d", variant, "Di", None, "10.0.0.9", "B1")]:
        await queue.put(waiting)
        await asyncio.sleep(0.002)  # Redis orders by the millisecond
    # The oldest's table: one of the three, the account's two tabs (one seat), and Bo; not Cy,
    # whose address is the account's, nor Di, whose browser is the squatter's.
    group = await queue.take(variant, wait=60, stale=60)
    assert [(w.ticket, w.address, w.browser) for w in group] == [
        ("s0", "10.0.0.1", "B1"), ("a0", "10.0.0.2", ""), ("a1", "10.0.0.2", ""),
        ("b", "10.0.0.3", "")]
    assert await queue.take(variant, wait=60, stale=60) == []  # s1, s2, c, d: not four yet
    assert [w.ticket for w in await queue.take(variant, wait=0, stale=60)] == ["s1", "c"]
    assert [w.ticket for w in await queue.take(variant, wait=0, stale=60)] == ["s2"]
    assert [w.ticket for w in await queue.take(variant, wait=0, stale=60)] == ["d"]


def test_the_line_seats_one_ticket_per_address_at_a_table() -> None:
    run_async(_one_per_address(MemoryQueue(), "baofen"))


def test_the_redis_line_seats_one_ticket_per_address_at_a_table(redis_prefix: str) -> None:
    async def run() -> None:
        queue = RedisQueue(REDIS_URL, redis_prefix)
        try:
            await _one_per_address(queue, "hongwu")
        finally:
            await queue.close()

    run_async(run())


def test_two_tickets_of_one_browser_never_share_a_table(server: ThreadServer) -> None:
    """The browser is marked by a cookie on its first ticket: from another address, it is still
    the same client."""
    browser = httpx.Client(base_url=server.base)
    first = browser.post("/api/match", json={}, headers={"X-Forwarded-For": "10.201.0.1"})
    assert first.status_code == 201 and "baofen_browser" in browser.cookies
    again = browser.post("/api/match", json={}, headers={"X-Forwarded-For": "10.201.0.2"})
    assert again.status_code == 201 and "set-cookie" not in again.headers  # kept, not renewed
    others = [ask(server.base) for _ in range(2)]
    assert others[-1]["status"] == "waiting" and others[-1]["waiting_players"] == 4
    browser.close()
