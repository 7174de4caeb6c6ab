"""The daily challenge's day boards: a small day is ranked again on the first read after a new
result; a large day (its ranking slower than ``INLINE_SECONDS``) in the background, its reads
answered at once from the board before until the new one is there."""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from baofen.server.challenge.results import INLINE_SECONDS, Results

DAY = date(2026, 12, 5)


class Store:
    """The part of :class:`~baofen.store.challenges.Challenges` the boards read, ranking in
    ``seconds``; each :meth:`settle` brings one more entrant's result."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.rows: list[tuple[str, int, int, int]] = [
            (DAY.isoformat(), entry, 1, 10 * entry) for entry in (1, 2, 3)]

    def settle(self, variant: str, day: str, entry_id: int | None = None) -> int:
        if entry_id is None:
            return 0
        self.rows.append((day, entry_id, 1, 100))
        return 1

    def results(self, variant: str, first: str, last: str) -> list[tuple[str, int, int, int]]:
        time.sleep(self.seconds)
        return list(self.rows)

    def entrants(self, keys: list[int]) -> dict[int, tuple[str, int | None]]:
        return {key: (f"P{key}", None) for key in keys}


def boards(seconds: float) -> tuple[Results, Any]:
    results = Results(Store(seconds))  # type: ignore[arg-type]
    return results, results.day("baofen", DAY, over=True)


def test_a_small_day_is_ranked_again_on_the_first_read_after_a_result() -> None:
    results, before = boards(0.0)
    results.settle("baofen", DAY, 9)
    after = results.day("baofen", DAY, over=True)
    assert after is not before
    assert after.standings[0].key == 9


def test_a_large_day_is_ranked_again_in_the_background() -> None:
    results, before = boards(2 * INLINE_SECONDS)
    assert before.took >= 2 * INLINE_SECONDS
    results.settle("baofen", DAY, 9)
    start = time.perf_counter()
    assert results.day("baofen", DAY, over=True) is before  # answered from the board before
    assert time.perf_counter() - start < INLINE_SECONDS
    deadline = time.monotonic() + 10
    while (board := results.day("baofen", DAY, over=True)) is before:
        assert time.monotonic() < deadline, "the day was not ranked again"
        time.sleep(0.01)
    assert board.standings[0].key == 9
    assert len(board.standings) == 4
