"""Standings of duplicate events from their results: a day (or a tournament) and a period of
days.

A day's standing of an entry is the mean of its deal percentages (:func:`.matchpoints`, each
deal scored among the entries that finished it) over the deals it finished; its total is the sum
of its results (包分 points, 包红五 levels). A period's standing of a player is the mean of its
days' standings over the days it played, listed once it played ``min_days`` days.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .matchpoints import matchpoints, mean_percentage

Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Standing(Generic[Key]):
    """One entry's (or player's) standing: mean percentage, deals (or days) counted, total."""

    key: Key
    percentage: float
    count: int
    total: int
    rank: int = 0


def deal_percentages(results: Iterable[tuple[Key, int, int]]) -> dict[Key, dict[int, float]]:
    """Each entry's percentage on each deal it finished, from ``(entry, deal, result)``."""
    by_deal: dict[int, dict[Key, int]] = defaultdict(dict)
    for entry, deal, result in results:
        by_deal[deal][entry] = result
    percentages: dict[Key, dict[int, float]] = defaultdict(dict)
    for deal, deal_results in by_deal.items():
        for entry, score in matchpoints(deal_results).items():
            percentages[entry][deal] = score.percentage
    return dict(percentages)


def ranked(standings: Iterable[Standing[Key]]) -> list[Standing[Key]]:
    """Best first (mean percentage, then total); equal standings share a rank (1224 ranking)."""
    ordered = sorted(standings, key=lambda s: (-s.percentage, -s.total))
    out: list[Standing[Key]] = []
    for index, standing in enumerate(ordered):
        tied = out and (out[-1].percentage, out[-1].total) == (standing.percentage,
                                                               standing.total)
        rank = out[-1].rank if tied else index + 1
        out.append(Standing(standing.key, standing.percentage, standing.count, standing.total,
                            rank))
    return out


def day_standings(results: Iterable[tuple[Key, int, int]],
                  percentages: dict[Key, dict[int, float]] | None = None
                  ) -> list[Standing[Key]]:
    """A day's standings, best first, from ``(entry, deal, result)`` of every finished deal
    (and their :func:`deal_percentages`, when the caller has them already)."""
    rows = list(results)
    totals: dict[Key, int] = defaultdict(int)
    for entry, _, result in rows:
        totals[entry] += result
    if percentages is None:
        percentages = deal_percentages(rows)
    return ranked(
        Standing(entry, mean_percentage(deals.values()), len(deals), totals[entry])
        for entry, deals in percentages.items()
    )


def period_standings(
    days: Iterable[tuple[Key, Standing[Any]]], min_days: int
) -> list[Standing[Key]]:
    """A period's standings, best first, from ``(player, its standing of one day)`` for every
    day a player played: the mean of its day percentages, listed from ``min_days`` days."""
    percentages: dict[Key, list[float]] = defaultdict(list)
    totals: dict[Key, int] = defaultdict(int)
    for player, standing in days:
        percentages[player].append(standing.percentage)
        totals[player] += standing.total
    return ranked(
        Standing(player, mean_percentage(values), len(values), totals[player])
        for player, values in percentages.items() if len(values) >= min_days
    )
