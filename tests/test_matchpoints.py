"""Matchpoints: each result against every other on the same deal and seat (1 a win, ½ a tie)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baofen.competition import matchpoints, mean_percentage


def test_a_traveller_scored_as_in_bridge() -> None:
    scores = matchpoints({"a": 3, "b": 3, "c": 1, "d": -2})
    assert {k: v.matchpoints for k, v in scores.items()} == {"a": 2.5, "b": 2.5, "c": 1, "d": 0}
    assert scores["a"].percentage == pytest.approx(250 / 3)
    assert scores["d"].percentage == 0


def test_a_deal_played_once_scores_half() -> None:
    assert matchpoints({"alone": 40})["alone"].percentage == 50


def test_the_mean_percentage_is_the_standing() -> None:
    assert mean_percentage([100, 50, 0]) == 50
    assert mean_percentage([]) == 0


@given(st.dictionaries(st.integers(0, 50), st.integers(-5, 5), min_size=1, max_size=30))
def test_matchpoints_share_the_top_out(results: dict[int, int]) -> None:
    scores = matchpoints(results)
    n = len(results)
    # Every pair hands out one matchpoint between its two entries.
    assert sum(s.matchpoints for s in scores.values()) == n * (n - 1) / 2
    for entry, score in scores.items():
        beaten = sum(other < results[entry] for other in results.values())
        tied = sum(other == results[entry] for other in results.values()) - 1
        assert score.matchpoints == beaten + tied / 2
