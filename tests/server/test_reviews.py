"""The server's 复盘 (review) endpoint: a finished hand's review computed in worker processes;
a few review levels, a bounded queue answering 429, one unfinished review per client address and
a few deep ones an hour, a player's own review first whoever else waits, abandoned reviews
dropped, a pool that heals when its worker dies, and a hand number beyond any table answered
404."""

from __future__ import annotations

import logging
import os
import signal
import time
from typing import Any

import httpx
import pytest

from baofen import Bid, Declare, Hand, Play, RuleSet
from baofen.review import VERSION
from baofen.server import ServerConfig
from baofen.server.reviews import pool as review_pool
from baofen.server.reviews import queue as review_queue
from baofen.server.routes import reviews as review_routes

from .accounts import session, sign_up
from .harness import FAST, Client, ThreadServer, create_table, play_until_finished, start_with_bots


def test_the_review_endpoint_reviews_a_finished_hand(server: ThreadServer, db_url: str) -> None:
    rules = RuleSet.hongwu(hands=1)
    me, code = start_with_bots(server.base, rules)
    url = f"{server.base}/api/tables/{code}/hands/1/analysis?level=quick"
    # Before the hand is over there is nothing to review.
    assert httpx.get(url).status_code == 404
    play_until_finished([me], rules)
    me.close()
    deadline = time.monotonic() + 600
    statuses = []
    totals = set()
    while True:
        response = httpx.get(url, timeout=30)
        statuses.append(response.status_code)
        body: dict[str, Any] = response.json()
        if response.status_code == 200:
            break
        assert response.status_code == 202 and body["status"] == "running"
        assert 0.0 <= body["progress"] < 1.0
        # Progress by decision: reviewed of all.
        assert 0 <= body["moves"] < body["total"] and body["progress"] == pytest.approx(
            body["moves"] / body["total"])
        totals.add(body["total"])
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.5)
    assert statuses[0] == 202  # started in the background, not computed in the request
    review = body["review"]
    hand = Hand.from_record(httpx.get(f"{server.base}/api/tables/{code}/hands/1").json())
    # Every play and the trump and bury are reviewed, and every bid where the seat had a choice.
    plays = [i for i, (_, action) in enumerate(hand.actions) if isinstance(action, Play)]
    moves = review["moves"]
    assert [m["action"] for m in moves if m["kind"] == "play"] == plays
    replay = hand.redeal()
    contract: list[int] = []
    for i, (seat, action) in enumerate(hand.actions):
        chose = len(replay.observation(seat).legal_bids()) > 1
        if isinstance(action, Declare) or (isinstance(action, Bid) and chose):
            contract.append(i)
        replay.apply(seat, action)
    assert [m["action"] for m in moves if m["kind"] != "play"] == contract
    assert sum(m["kind"] == "declare" for m in moves) == 1
    assert [s["seat"] for s in review["seats"]] == [0, 1, 2, 3]
    assert review["unit"] == "levels" and review["version"] == VERSION and review["hint"] == "rule"
    assert sum(s["moves"] for s in review["seats"]) == len(moves)
    assert totals == {len(moves)}  # one task a decision
    for seat in review["seats"]:
        assert 0.0 <= seat["accuracy"] <= 100.0 and "total_loss" not in seat
    for move in moves:
        assert move["category"] in ("", "inaccuracy", "mistake", "blunder")
        assert move["made"] in [o["move"] for o in move["options"]]
    assert httpx.get(f"{server.base}/api/tables/{code}/hands/2/analysis").status_code == 404
    assert httpx.get(f"{server.base}/api/tables/nope/hands/1/analysis").status_code == 404
    assert httpx.get(f"{url.split('?')[0]}?level=thorough").status_code == 422
    # Kept: asked again, it answers at once with the same review; and kept in the store, so a
    # server started afresh on the database serves it without computing it again.
    assert httpx.get(url).json()["review"] == review
    server.stop()
    again = ThreadServer(ServerConfig(db=db_url, **FAST))
    try:
        response = httpx.get(url.replace(server.base, again.base))
        assert response.status_code == 200 and response.json()["review"] == review
        assert again.app.state.reviews.pool is None  # nothing was computed
    finally:
        again.stop()


def from_address(host: str) -> httpx.Client:
    """An HTTP client whose connections come from loopback address ``host``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=host), timeout=30)


@pytest.fixture
def finished_table(server: ThreadServer) -> str:
    """A table whose two hands are over."""
    rules = RuleSet.hongwu(hands=2)
    me, code = start_with_bots(server.base, rules)
    play_until_finished([me], rules)
    me.close()
    return code


def test_the_review_queue_is_bounded(
    server: ThreadServer, finished_table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_pool, "MAX_REVIEWS", 2)  # only quick reviews run in this test
    url = f"{server.base}/api/tables/{finished_table}/hands/{{}}/analysis?level={{}}"
    one = from_address("127.0.0.2")
    # Any budget is no longer a job of its own: only the levels are.
    assert one.get(url.format(1, "quick") + "&budget=3&candidates=5").status_code == 202
    assert one.get(url.format(1, "1")).status_code == 422
    # One unfinished review per address: a flood of 60 from it starts nothing more.
    flood = [one.get(url.format(1 + i % 2, ("standard", "deep")[i % 2])) for i in range(60)]
    reviews = server.app.state.reviews
    print(f"60 requests from one address: {len(reviews.jobs)} review queued")
    assert {r.status_code for r in flood} == {429}
    assert flood[0].headers["Retry-After"]
    assert len(reviews.jobs) == 1
    # Asked again, its own review answers (202 while it runs).
    assert one.get(url.format(1, "quick")).status_code in (200, 202)
    # MAX_REVIEWS unfinished on the server at most, whatever the addresses.
    assert from_address("127.0.0.3").get(url.format(2, "quick")).status_code == 202
    refused = from_address("127.0.0.4").get(url.format(2, "standard"))
    assert refused.status_code == 429 and len(reviews.jobs) == 2


def test_a_review_nobody_asks_about_is_dropped(
    server: ThreadServer, finished_table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_pool, "ABANDONED_SECONDS", 0.5)
    # A standard review (its decisions take longer than the wait below even on a fast machine,
    # so that the one worker has not started the last decisions' tasks when it is dropped).
    url = f"{server.base}/api/tables/{finished_table}/hands/1/analysis?level=standard"
    client = from_address("127.0.0.2")
    assert client.get(url).status_code == 202
    time.sleep(1.0)
    # Dropped: the address may start another, and the first review's waiting tasks never run.
    standard = (finished_table, 1, *review_routes.LEVELS["standard"])
    first = server.app.state.reviews.jobs[standard]
    assert client.get(url.replace("hands/1", "hands/2").replace("standard", "quick")
                      ).status_code == 202
    assert standard not in server.app.state.reviews.jobs
    assert any(task.cancelled() for task in first.tasks)


def test_a_huge_hand_number_is_not_found(db_url: str) -> None:
    live = ThreadServer(ServerConfig(db=db_url, **FAST))
    try:
        rules = RuleSet.hongwu(hands=1)
        me, code = start_with_bots(live.base, rules)
        me.close()
        for number in (10**30, 2**63, -1, 0):
            for path in (f"hands/{number}", f"hands/{number}/analysis"):
                response = httpx.get(f"{live.base}/api/tables/{code}/{path}")
                assert response.status_code == 404, (path, response.text)
    finally:
        live.stop()


def review_of(client: httpx.Client, url: str) -> dict[str, Any]:
    """The finished review at ``url``, asked for once a second as the page does (202 while it
    runs, never an error)."""
    deadline = time.monotonic() + 300
    while (answer := client.get(url)).status_code == 202:
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.5)
    assert answer.status_code == 200, answer.text
    review: dict[str, Any] = answer.json()["review"]
    return review


def kill_the_worker(server: ThreadServer) -> None:
    """Kill the review pool's worker process, as the OOM killer would."""
    pool = server.app.state.reviews.pool
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)


def test_the_review_pool_heals_when_its_worker_dies(
    server: ThreadServer, finished_table: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "baofen.server")
    url = f"{server.base}/api/tables/{finished_table}/hands/{{}}/analysis?level=quick"
    client = httpx.Client(timeout=30)
    review_of(client, url.format(1))
    # The worker dies between two reviews: the next review starts on a new pool.
    kill_the_worker(server)
    time.sleep(1.0)  # the pool notices its dead worker
    assert review_of(client, url.format(2))["moves"]
    assert "review pool" in caplog.text
    # The worker dies during a review: the review is started again (once) on a new pool.
    caplog.clear()
    url = url.replace("quick", "standard")
    assert client.get(url.format(1)).status_code == 202
    time.sleep(0.2)
    (job,) = server.app.state.reviews.jobs.values()
    assert not job.done  # a standard review takes seconds
    kill_the_worker(server)
    assert review_of(client, url.format(1))["moves"]
    assert "review pool" in caplog.text and "again" in caplog.text


def test_a_player_reviews_their_own_hand_first_whoever_else_waits(server: ThreadServer) -> None:
    rules = RuleSet.hongwu(hands=5)
    player = sign_up(server.base, "Reviewer")
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Client(server.base, code, session(player))
    me.join(0)
    me.send(type="fill_bots", level="random")
    me.expect("ack")
    me.send(type="start")
    me.expect("ack")
    play_until_finished([me], rules)
    me.close()
    url = f"{server.base}/api/tables/{code}/hands/{{}}/analysis?level=standard"
    # Four addresses ask for reviews: they hold every slot the server used to have.
    others = [from_address(f"127.0.0.{2 + n}") for n in range(4)]
    for hand, other in enumerate(others, 1):
        assert other.get(url.format(hand)).status_code == 202
    # A fifth requester is not turned away; a player of the table is served first.
    assert player.get(url.format(5)).status_code == 202
    jobs = server.app.state.reviews.jobs
    assert not any(job.done for job in jobs.values())
    reviewed: list[str] = []  # whose decisions the pool finished from now on, in order
    for (_, hand, _, _), job in list(jobs.items()):
        # A decision reviewed already (before the player asked, or the one under way then)
        # would be told at once: only those still to come count.
        for task in (task for task in job.tasks if not task.done()):
            task.add_done_callback(lambda _, who="own" if hand == 5 else "other":
                                   reviewed.append(who))
    deadline = time.monotonic() + 300
    while (answer := player.get(url.format(5))).status_code == 202:
        for hand, other in enumerate(others, 1):  # they keep asking, as their pages do
            assert other.get(url.format(hand)).status_code == 202
        assert time.monotonic() < deadline
        time.sleep(0.3)
    assert answer.status_code == 200
    # Before the player's last decision, the pool finished only what it was reviewing when the
    # player asked.
    last = len(reviewed) - reviewed[::-1].index("own")
    assert reviewed[:last].count("other") <= review_pool.WORKERS, reviewed


def test_deep_reviews_are_bounded_per_address_and_hour(
    server: ThreadServer, finished_table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(review_routes.LEVELS, "deep", (2, 2))  # a deep review that is quick to run
    monkeypatch.setattr(review_queue, "DEEP_PER_HOUR", 1)
    url = f"{server.base}/api/tables/{finished_table}/hands/{{}}/analysis?level=deep"
    client = from_address("127.0.0.2")
    review_of(client, url.format(1))
    refused = client.get(url.format(2))
    assert refused.status_code == 429 and "deep" in refused.json()["detail"]
    assert 3500 < int(refused.headers["Retry-After"]) <= 3601
    assert client.get(url.format(2).replace("deep", "quick")).status_code == 202
    assert from_address("127.0.0.3").get(url.format(2)).status_code == 202
