"""Each day's scores and standings, ranked once and kept while nothing changed.

Ranking a day reads every finished play of it and scores each deal (O(n log n) a deal); the
board is then kept, so that every page of a leaderboard and of a traveller is served from
memory. A board is made again when a result was settled here since, or when it is older than
``FRESH_SECONDS`` (results settled by another server of a cluster); a large day's (one whose
last ranking took over ``INLINE_SECONDS``) in the background, its pages served meanwhile from
the board before — at most one ranking behind — so that no page waits for a ranking once the
day has a board. A period's board is made of
its days' boards and counts only days that are over, so it is kept for the rest of the day.
Every method blocks on the store: run it off the event loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from ...competition.daily_standings import (
    Standing,
    day_standings,
    deal_percentages,
    period_standings,
)
from ...competition.matchpoints import Score, matchpoints
from ...store.challenges import Challenges, Play

log = logging.getLogger(__name__)

FRESH_SECONDS = 10.0
"""Today's board is made again after this long, to show what other servers settled."""

INLINE_SECONDS = 0.05
"""A day whose last ranking took longer than this is ranked again in the background."""

OVER_SECONDS = 600.0
"""The board of a day that is over is made again after this long (a hand begun before
midnight may end after it)."""


@dataclass(slots=True)
class DayBoard:
    """One game's day: each entry's standing, best first, and its percentage on each deal."""

    standings: list[Standing[int]]
    percentages: dict[int, dict[int, float]]
    names: dict[int, tuple[str, int | None]]
    """Each entry's name and account (None: a guest)."""
    changes: int
    """The day's results settled here when it was made."""
    made: float = field(default_factory=time.monotonic)
    took: float = 0.0
    """Seconds its ranking took (settling the day's results included)."""
    by_entry: dict[int, Standing[int]] = field(init=False)
    """Each entry's standing."""

    def __post_init__(self) -> None:
        self.by_entry = {standing.key: standing for standing in self.standings}


@dataclass(slots=True)
class Traveller:
    """One deal's finished plays, best first, and each entry's matchpoints on it."""

    plays: list[Play]
    scores: dict[int, Score]
    made: float = field(default_factory=time.monotonic)


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
        self._travellers: dict[tuple[str, str, int], Traveller] = {}
        self._periods: dict[tuple[str, str, str, int], PeriodBoard] = {}
        self._changes: dict[tuple[str, str], int] = defaultdict(int)
        """Results settled here of each day so far: a board made before the last is stale."""
        self._lock = threading.Lock()  # one ranking of a day at a time
        self._ranking: set[tuple[str, str]] = set()
        """The days being ranked in the background."""

    def settle(self, variant: str, day: date, entry_id: int | None = None) -> None:
        """Write the results of the day's hands that are over (one entry's, when given)."""
        if self.store.settle(variant, day.isoformat(), entry_id):
            self._changes[(variant, day.isoformat())] += 1

    def _fresh(self, key: tuple[str, str], made: float, changes: int, over: bool) -> bool:
        age = time.monotonic() - made
        return changes == self._changes[key] and age < (OVER_SECONDS if over else FRESH_SECONDS)

    def day(self, variant: str, day: date, over: bool = False) -> DayBoard:
        """The day's board, as of now (within ``FRESH_SECONDS`` for other servers' results;
        the board of a day that is ``over`` within ``OVER_SECONDS``)."""
        key = (variant, day.isoformat())
        board = self._days.get(key)
        if board is not None and self._fresh(key, board.made, board.changes, over):
            return board
        if board is not None and board.took > INLINE_SECONDS:
            if key not in self._ranking:
                self._ranking.add(key)
                threading.Thread(target=self._rank_again, args=(variant, day, over),
                                 name=f"challenge-{variant}-{key[1]}", daemon=True).start()
            return board
        return self._made(variant, day, over)

    def _made(self, variant: str, day: date, over: bool) -> DayBoard:
        """The day's board, ranked now unless another ranking made it fresh meanwhile."""
        key = (variant, day.isoformat())
        with self._lock:
            board = self._days.get(key)
            if board is None or not self._fresh(key, board.made, board.changes, over):
                began = time.perf_counter()
                self.settle(variant, day)
                board = self._rank(variant, key[1], self._changes[key])
                board.took = time.perf_counter() - began
                self._days[key] = board
        return board

    def _rank_again(self, variant: str, day: date, over: bool) -> None:
        try:
            self._made(variant, day, over)
        except Exception:  # the store is down: the next read tries again
            log.exception("challenge: ranking %s %s failed", variant, day)
        finally:
            self._ranking.discard((variant, day.isoformat()))

    def _rank(self, variant: str, day: str, changes: int) -> DayBoard:
        rows = [(entry, deal, result)
                for _, entry, deal, result in self.store.results(variant, day, day)]
        percentages = deal_percentages(rows)
        standings = day_standings(rows, percentages)
        names = self.store.entrants([standing.key for standing in standings])
        return DayBoard(standings, percentages, names, changes)

    def traveller(self, variant: str, day: date, deal: int, over: bool = False) -> Traveller:
        """Every finished play of one deal of the day, best first, with its score."""
        board = self.day(variant, day, over)
        key = (variant, day.isoformat(), deal)
        kept = self._travellers.get(key)
        if kept is not None and kept.made >= board.made:
            return kept
        plays = sorted(self.store.traveller(variant, day.isoformat(), deal),
                       key=lambda play: -(play.result or 0))
        scores = matchpoints({play.entry_id: play.result or 0 for play in plays})
        kept = self._travellers[key] = Traveller(plays, scores)
        return kept

    def period(self, variant: str, first: date, last: date, min_days: int) -> PeriodBoard:
        """The accounts' board over the days ``first`` to ``last`` (days that are over)."""
        key = (variant, first.isoformat(), last.isoformat(), min_days)
        board = self._periods.get(key)
        if board is None:
            board = self._periods[key] = self._rank_period(variant, first, last, min_days)
        return board

    def _rank_period(self, variant: str, first: date, last: date, min_days: int) -> PeriodBoard:
        names: dict[int, str] = {}
        played: list[tuple[int, Standing[int]]] = []
        for day in self.store.days(variant, first.isoformat(), last.isoformat()):
            board = self.day(variant, date.fromisoformat(day), over=True)
            for standing in board.standings:
                name, account = board.names[standing.key]
                if account is not None:  # guests have no lasting name to be listed under
                    names[account] = name
                    played.append((account, standing))
        return PeriodBoard(period_standings(played, min_days), names)
