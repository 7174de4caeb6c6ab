"""Password tries (sign-in, password change, account deletion): taken before they are verified,
so that a burst is limited on one node and across a cluster; a name backs off instead of being
locked, so that wrong passwords from elsewhere delay its owner by seconds."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from baofen.server import ServerConfig

from .accounts import PASSWORD, sign_up
from .cluster import SHARED_REDIS
from .databases import Database, database
from .harness import FAST, ThreadServer, run_async

BURST = 60


@pytest.fixture
def live(db_url: str) -> Iterator[ThreadServer]:
    server = ThreadServer(ServerConfig(db=db_url, **FAST))
    yield server
    server.stop()


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


def burst(bases: list[str], path: str, bodies: list[dict[str, str]],
          addresses: list[str] | None = None, method: str = "POST",
          cookies: dict[str, str] | None = None) -> list[int]:
    """Send every body at once (request n to ``bases[n % len]``, from ``addresses[n]`` when
    given); the answers' status codes, in order."""

    async def send() -> list[int]:
        async with httpx.AsyncClient(timeout=300, cookies=cookies,
                                     limits=httpx.Limits(max_connections=None)) as client:
            answers = await asyncio.gather(*(
                client.request(
                    method, bases[n % len(bases)] + path, json=body,
                    headers={"X-Forwarded-For": addresses[n]} if addresses else None,
                )
                for n, body in enumerate(bodies)
            ))
        return [answer.status_code for answer in answers]

    return run_async(send())


def guesses(right_last: bool = True) -> list[dict[str, str]]:
    """``BURST`` sign-ins of Ann: wrong passwords, and the right one last."""
    bodies = [{"username": "ann", "password": f"guess {n:04}"} for n in range(BURST)]
    if right_last:
        bodies[-1]["password"] = PASSWORD
    return bodies


def test_a_burst_of_guesses_is_limited_before_they_are_verified(live: ThreadServer) -> None:
    sign_up(live.base, "Ann")
    answers = burst([live.base], "/api/login", guesses())
    print(f"a burst of {BURST} sign-ins: {answers.count(401) + answers.count(200)} verified")
    # Before: 59 wrong guesses verified, the 60th signed in. Now 5 at most are verified,
    # whichever of the burst reach the server first (the right one too, if it came early).
    assert answers.count(401) + answers.count(200) <= 5, answers
    assert set(answers) <= {200, 401, 429} and answers.count(429) >= BURST - 5
    # From as many addresses as guesses: the name's back-off lets no more through.
    spread = burst([live.base], "/api/login", guesses(),
                   [f"10.9.{n}.1" for n in range(BURST)])
    assert spread.count(401) + spread.count(200) <= 5, spread


def test_bursts_of_wrong_passwords_on_the_account_routes_are_limited(live: ThreadServer) -> None:
    eve = sign_up(live.base, "Eve")
    cookies = dict(eve.cookies)
    change = [{"old_password": f"guess {n:04}", "new_password": "a new password"}
              for n in range(30)]
    answers = burst([live.base], "/api/me/password", change, cookies=cookies)
    assert answers.count(403) <= 5 and set(answers) <= {403, 429}, answers
    delete = [{"password": f"guess {n:04}"} for n in range(30)]
    answers = burst([live.base], "/api/me", delete, method="DELETE", cookies=cookies,
                    addresses=[f"10.8.{n}.1" for n in range(30)])
    assert answers.count(403) <= 5 and set(answers) <= {403, 429}, answers
    assert eve.get("/api/me").status_code == 200


@pytest.fixture
def two_nodes(pg: Database) -> Iterator[list[str]]:
    """Two nodes of a cluster (uvicorn in threads: quicker to start than processes) on one
    PostgreSQL schema and the shared Redis, under a key prefix of their own."""
    prefix = f"baofen-test-{secrets.token_hex(4)}:"
    settings = ServerConfig(db=pg.url, db_schema=pg.schema, redis=SHARED_REDIS,
                              redis_prefix=prefix, **FAST)
    nodes = [ThreadServer(settings.model_copy(update={"node": f"n{n}"})) for n in range(2)]
    yield [node.base for node in nodes]
    for node in nodes:
        node.stop()
    client = redis.Redis.from_url(SHARED_REDIS)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


def test_a_burst_across_two_nodes_is_limited_in_redis(two_nodes: list[str]) -> None:
    sign_up(two_nodes[0], "Ann")
    answers = burst(two_nodes, "/api/login", guesses())
    print(f"a burst of {BURST} over two nodes: {answers.count(401) + answers.count(200)} verified")
    assert answers.count(401) + answers.count(200) <= 5, answers  # verified, on both nodes
    assert set(answers) <= {200, 401, 429}, answers
    spread = burst(two_nodes, "/api/login", guesses(), [f"10.7.{n}.1" for n in range(BURST)])
    assert spread.count(401) + spread.count(200) <= 5, spread


def test_wrong_passwords_from_elsewhere_delay_the_owner_by_seconds(live: ThreadServer) -> None:
    """Five wrong passwords from five addresses no longer lock the name for five minutes: it
    backs off for a second, then its owner signs in."""
    sign_up(live.base, "Cyd")

    def login(password: str, address: str) -> httpx.Response:
        return httpx.post(f"{live.base}/api/login", headers={"X-Forwarded-For": address},
                          json={"username": "cyd", "password": password})

    for n in range(5):
        assert login("guess number", f"10.0.0.{n}").status_code == 401
    deadline = time.monotonic() + 30
    while (answer := login(PASSWORD, "10.0.1.1")).status_code == 429:
        assert int(answer.headers["Retry-After"]) <= 2  # seconds, not the window
        assert time.monotonic() < deadline
        time.sleep(int(answer.headers["Retry-After"]))
    assert answer.status_code == 200
    # Past its free tries a name takes one try at a time, each pausing it longer.
    answers = burst([live.base], "/api/login",
                    [{"username": "cyd", "password": f"guess {n}"} for n in range(10)],
                    [f"10.0.2.{n}" for n in range(10)])
    assert answers.count(401) <= 2 and set(answers) <= {401, 429}, answers
