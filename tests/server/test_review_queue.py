"""The 复盘 pool's time is shared: decisions in fair-share order by cost, a player's own review
first, a review joining level with the others, and a few deep reviews an hour per address."""

from __future__ import annotations

import pytest

from baofen.server.reviews import queue as review_queue
from baofen.server.reviews.queue import Busy, DeepReviews, ReviewQueue


def drain(queue: ReviewQueue[str]) -> list[str]:
    """Every decision in the order the pool gets them."""
    order = []
    while (decision := queue.next()) is not None:
        order.append(decision)
    return order


def test_reviews_share_the_pool_by_cost() -> None:
    queue: ReviewQueue[str] = ReviewQueue()
    queue.add(False, 6, [f"a{i}" for i in range(4)])  # a standard review: 2 worlds, 3 candidates
    queue.add(False, 6, [f"b{i}" for i in range(4)])
    # Equal costs: one decision each in turn, whoever asked first.
    assert drain(queue) == ["a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3"]
    deep = queue.add(False, 12, [f"d{i}" for i in range(3)])
    queue.add(False, 6, [f"q{i}" for i in range(4)])
    # A decision costing twice as much comes half as often.
    assert drain(queue) == ["d0", "q0", "q1", "d1", "q2", "q3", "d2"]
    assert not deep.waiting and len(queue) == 0


def test_a_review_joins_level_with_the_least_served() -> None:
    queue: ReviewQueue[str] = ReviewQueue()
    queue.add(False, 1, [f"a{i}" for i in range(10)])
    assert [queue.next() for _ in range(6)] == [f"a{i}" for i in range(6)]
    # Asked now, b is not handed the pool until it has had as much as a: they alternate.
    queue.add(False, 1, [f"b{i}" for i in range(3)])
    assert drain(queue) == ["a6", "b0", "a7", "b1", "a8", "b2", "a9"]


def test_a_players_own_review_comes_first() -> None:
    queue: ReviewQueue[str] = ReviewQueue()
    for name in "abcd":
        queue.add(False, 1, [f"{name}{i}" for i in range(3)])
    assert queue.next() == "a0"
    queue.add(True, 48, ["own0", "own1"])
    assert [queue.next() for _ in range(3)] == ["own0", "own1", "b0"]


def test_a_dropped_review_leaves_the_queue() -> None:
    queue: ReviewQueue[str] = ReviewQueue()
    dropped = queue.add(False, 1, ["x0", "x1"])
    queue.add(False, 1, ["y0"])
    queue.remove(dropped)
    assert drain(queue) == ["y0"]


def test_deep_reviews_an_hour_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(review_queue.time, "monotonic", lambda: clock[0])
    deep = DeepReviews()
    for _ in range(review_queue.DEEP_PER_HOUR):
        deep.start("10.0.0.1")
        clock[0] += 60
    with pytest.raises(Busy) as refused:
        deep.start("10.0.0.1")
    waited = 60 * review_queue.DEEP_PER_HOUR
    assert refused.value.retry_after == review_queue.HOUR - waited + 1
    deep.start("10.0.0.2")  # another address is not held back
    clock[0] += review_queue.HOUR - waited  # the first one is an hour old
    deep.start("10.0.0.1")
