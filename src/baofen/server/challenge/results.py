"""Each day's scores and standings, ranked once and kept while nothing changed.

Ranking a day reads every finished play of it and scores each deal (O(n log n) a deal); the
board is then kept, so that every page of a leaderboard and every traveller is served from
memory. A board is made again when a result was settled here since, or when it is older than
``FRESH_SECONDS`` (results settled by another server of a cluster). A period's board counts
only days that are over, so it is kept for the rest of the day. Every method blocks on the
store: run it off the event loop.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from ...competition.standings import Standing, day_standings, deal_percentages, period_standings
from ...store.challenges import Challenges

FRESH_SECONDS = 10.0
"""A day's board is made again after this long, to show what other servers settled."""


@dataclass(slots=True)
class DayBoard:
    """One game's day: each entry's standing, best first, and its percentage on each deal."""

    standings: list[Standing[int]]
    percentages: dict[int, dict[int, float]]
    names: dict[int, tuple[str, int | None]]
    """Each entry's name and account (None: a guest)."""
    made: float = field(default_factory=time.monotonic)
    by_entry: dict[int, Standing[int]] = field(init=False)
    """Each entry's standing."""

    def __post_init__(self) -> None:
        self.by_entry = {standing.key: standing for standing in self.standings}


@dataclass(slots=True)
class PeriodBoard:
    """One game's period of days: each account's standing, best first, and its name."""

    standings: list[Standing[int]]
    names: dict[int, str]


class Results:
    """The boards of ``store``'s challenges."""

    def __init__(self, store: Challenges) -> None:
        self.store = store
        self._days: dict[tuple[str, str], DayBoard] = {}
        self._periods: dict[tuple[str, str, str, int], PeriodBoard] = {}
        self._stale: set[tuple[str, str]] = set()
        self._lock = threading.Lock()  # one ranking of a day at a time

    def settle(self, variant: str, day: date, entry_id: int | None = None) -> None:
        """Write the results of the day's hands that are over (one entry's, when given)."""
        if self.store.settle(variant, day.isoformat(), entry_id):
            self._stale.add((variant, day.isoformat()))

    def day(self, variant: str, day: date) -> DayBoard:
        """The day's board, as of now (within ``FRESH_SECONDS`` for other servers' results)."""
        key = (variant, day.isoformat())
        board = self._days.get(key)
        if board is not None and key not in self._stale and \
                time.monotonic() - board.made < FRESH_SECONDS:
            return board
        with self._lock:
            board = self._days.get(key)
            if board is None or key in self._stale or \
                    time.monotonic() - board.made >= FRESH_SECONDS:
                self._stale.discard(key)
                self.store.settle(variant, key[1])
                board = self._rank(variant, key[1])
                self._days[key] = board
        return board

    def _rank(self, variant: str, day: str) -> DayBoard:
        rows = [(entry, deal, result)
                for _, entry, deal, result in self.store.results(variant, day, day)]
        standings = day_standings(rows)
        names = self.store.entrants([standing.key for standing in standings])
        return DayBoard(standings, deal_percentages(rows), names)

    def period(self, variant: str, first: date | None, last: date, min_days: int) -> PeriodBoard:
        """The accounts' board over the days ``first`` (None: since the first) to ``last``."""
        start = first.isoformat() if first else "0000-00-00"
        key = (variant, start, last.isoformat(), min_days)
        board = self._periods.get(key)
        if board is None:
            board = self._periods[key] = self._rank_period(variant, start, last.isoformat(),
                                                           min_days)
        return board

    def _rank_period(self, variant: str, first: str, last: str, min_days: int) -> PeriodBoard:
        by_day: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for day, entry, deal, result in self.store.results(variant, first, last):
            by_day[day].append((entry, deal, result))
        days = {day: day_standings(rows) for day, rows in by_day.items()}
        entrants = self.store.entrants(
            [standing.key for standings in days.values() for standing in standings])
        names: dict[int, str] = {}
        played: list[tuple[int, Standing[int]]] = []
        for day in sorted(days):
            for standing in days[day]:
                name, account = entrants[standing.key]
                if account is not None:  # guests have no lasting name to be listed under
                    names[account] = name
                    played.append((account, standing))
        return PeriodBoard(period_standings(played, min_days), names)
