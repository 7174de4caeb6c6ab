"""The server's 复盘 endpoint: a finished hand's review, computed in a worker process."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from baofen import Bid, Declare, Hand, Play, RuleSet
from baofen.server import ServerSettings

from .harness import FAST, ThreadServer, play_until_finished, start_with_bots


def test_analysis_endpoint_reviews_a_finished_hand(server: ThreadServer, db_url: str) -> None:
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
    assert review["unit"] == "levels" and review["version"] == 3 and review["hint"] == "rule"
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
    again = ThreadServer(ServerSettings(db=db_url, **FAST))
    try:
        response = httpx.get(url.replace(server.base, again.base))
        assert response.status_code == 200 and response.json()["review"] == review
        assert again.app.state.reviews.pool is None  # nothing was computed
    finally:
        again.stop()

