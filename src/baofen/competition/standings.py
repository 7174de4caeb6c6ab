"""A tournament's standings from the hands its tables played.

Both formats rank entrants by their event points, ties broken by their total score (the sum of
their hands' results: 包分 points, 包红五 levels); entrants equal on both share a rank. Computer
fillers are listed, marked, and never ranked: the ranks count people (or, in a computer event,
entrants) only.

- 复式 (duplicate individual): event points are the mean matchpoint percentage
  (:mod:`baofen.competition.matchpoints`); each hand is compared with the same deal played in
  the same seat at every other table of the round, fillers' tables included, since their
  results are part of the field the players played against.
- 瑞士移位 (Swiss): each round, a table's four players are ranked by their scores over the
  round's hands, and each rank earns its tournament points (e.g. 4/2/1/0); players tied at a
  table share the points of the ranks they span.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .matchpoints import matchpoints, mean_percentage
from .seating import SEATS, Table

SWISS_POINTS = (4.0, 2.0, 1.0, 0.0)
"""Tournament points of table ranks 1–4 in a Swiss round, unless the event sets others."""


@dataclass(frozen=True)
class Played:
    """One hand played at one table of a round: who sat where and each seat's result."""

    round: int
    table: int
    deal: int
    """The hand's number in its round: a duplicate round's deal ``d`` is the same cards at
    every table."""
    seats: Table
    deltas: tuple[int, int, int, int]


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings."""

    entrant: str
    filler: bool
    """A computer filler: listed, never ranked."""
    rank: int | None
    points: float
    """Duplicate: the mean matchpoint percentage. Swiss: the tournament points."""
    score: int
    """The total of the entrant's hand results (the tie-break)."""
    hands: int

    def to_json(self) -> dict[str, object]:
        """The line as JSON (points rounded to hundredths)."""
        return {"entrant": self.entrant, "filler": self.filler, "rank": self.rank,
                "points": round(self.points, 2), "score": self.score, "hands": self.hands}


def duplicate_standings(played: Iterable[Played], fillers: Collection[str] = ()) -> list[Standing]:
    """The standings of a duplicate individual: mean matchpoint percentage, then total score."""
    hands = list(played)
    field: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    for hand in hands:
        for seat in range(SEATS):
            field[hand.round, hand.deal, seat][hand.table] = hand.deltas[seat]
    boards = {board: matchpoints(results) for board, results in field.items()}  # once each
    percentages: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, int] = defaultdict(int)
    for hand in hands:
        for seat, entrant in enumerate(hand.seats):
            scored = boards[hand.round, hand.deal, seat][hand.table]
            percentages[entrant].append(scored.percentage)
            scores[entrant] += hand.deltas[seat]
    return _ranked(
        {e: mean_percentage(p) for e, p in percentages.items()},
        scores, {e: len(p) for e, p in percentages.items()}, fillers)


def table_points(totals: Sequence[int], points: Sequence[float] = SWISS_POINTS) -> list[float]:
    """Each seat's tournament points from its total at the table: rank ``k`` earns
    ``points[k]``; seats tied share the mean of the points of the ranks they span."""
    if len(points) != len(totals):
        raise ValueError(f"give points for {len(totals)} ranks, not {len(points)}")
    ordered = sorted(totals, reverse=True)
    shares = []
    for total in totals:
        first = ordered.index(total)
        span = ordered.count(total)
        shares.append(sum(points[first:first + span]) / span)
    return shares


def swiss_standings(played: Iterable[Played], fillers: Collection[str] = (),
                    points: Sequence[float] = SWISS_POINTS) -> list[Standing]:
    """The standings of a Swiss event: tournament points, then total score."""
    totals: dict[tuple[int, int], list[int]] = {}
    seating: dict[tuple[int, int], Table] = {}
    hands: dict[str, int] = defaultdict(int)
    for hand in played:
        key = hand.round, hand.table
        if seating.setdefault(key, hand.seats) != hand.seats:
            raise ValueError(f"round {hand.round} table {hand.table} changed its players")
        sums = totals.setdefault(key, [0] * SEATS)
        for seat, entrant in enumerate(hand.seats):
            sums[seat] += hand.deltas[seat]
            hands[entrant] += 1
    earned: dict[str, float] = defaultdict(float)
    scores: dict[str, int] = defaultdict(int)
    for key, sums in totals.items():
        for entrant, total, share in zip(seating[key], sums, table_points(sums, points),
                                         strict=True):
            earned[entrant] += share
            scores[entrant] += total
    return _ranked(earned, scores, hands, fillers)


def _ranked(points: dict[str, float], scores: dict[str, int], hands: dict[str, int],
            fillers: Collection[str]) -> list[Standing]:
    """Standings in order, people ranked (equal points and score share a rank), fillers last."""

    def key(entrant: str) -> tuple[float, int]:
        return (round(points[entrant], 9), scores[entrant])

    ranked = sorted((e for e in points if e not in fillers), key=lambda e: (*_neg(key(e)), e))
    lines: list[Standing] = []
    rank = 0
    for place, entrant in enumerate(ranked, start=1):
        if place == 1 or key(ranked[place - 2]) != key(entrant):
            rank = place
        lines.append(Standing(entrant, False, rank, points[entrant], scores[entrant],
                              hands[entrant]))
    others = sorted((e for e in points if e in fillers), key=lambda e: (*_neg(key(e)), e))
    lines += [Standing(e, True, None, points[e], scores[e], hands[e]) for e in others]
    return lines


def _neg(key: tuple[float, int]) -> tuple[float, int]:
    return (-key[0], -key[1])
