"""Matchpoints (比赛分): duplicate scoring as in bridge.

On one deal and one seat, every entry's result (包分 points, 包红五 levels, higher is better for the
seat) is compared with every other entry's result there: 1 matchpoint for each result it beats,
½ for each tie. Its percentage is its matchpoints over the most it could get (the number of other
entries); a deal played by one entry alone gives it 50%, as no comparison favours it. An event's
standing is the mean percentage over the deals an entry played.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

Entry = TypeVar("Entry", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Score:
    """One entry's score on one deal and seat: matchpoints out of ``top``, and the percentage."""

    matchpoints: float
    top: int

    @property
    def percentage(self) -> float:
        """Matchpoints as a share of the top, in percent (50 where nobody else played the deal)."""
        return 50.0 if self.top == 0 else 100.0 * self.matchpoints / self.top


def matchpoints(results: Mapping[Entry, float]) -> dict[Entry, Score]:
    """Each entry's matchpoints among ``results`` (entry → its result on one deal and seat).

    Counting is by sorting, so a traveller of 10,000 results is scored in O(n log n); each
    distinct result is counted once (a deal's results take few values).
    """
    ordered = sorted(results.values())
    top = len(ordered) - 1
    scores: dict[Entry, Score] = {}
    by_result: dict[float, Score] = {}
    for entry, result in results.items():
        score = by_result.get(result)
        if score is None:
            below = _count_below(ordered, result)
            equal = _count_below(ordered, result, inclusive=True) - below - 1  # not itself
            score = by_result[result] = Score(below + equal / 2, top)
        scores[entry] = score
    return scores


def mean_percentage(percentages: Iterable[float]) -> float:
    """The mean of an entry's deal percentages (its standing); 0 for no deal played."""
    values = list(percentages)
    return sum(values) / len(values) if values else 0.0


def _count_below(ordered: list[float], value: float, inclusive: bool = False) -> int:
    """How many of the sorted ``ordered`` are below ``value`` (or at most ``value``)."""
    return (bisect_right if inclusive else bisect_left)(ordered, value)
