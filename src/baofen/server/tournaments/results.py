"""An event's standings and travellers, read from the hands its tables stored.

Nothing crosses between the tables of a round: a deal of the round being played counts in the
standings, and its traveller opens, only once every table of the round has finished it (the
standings move on after each deal the whole field has played; a fast table waits for the
slowest before its result shows).
"""

from __future__ import annotations

from typing import Any

from ...competition.schedule import Format
from ...competition.standings import (
    Played,
    Standing,
    duplicate_standings,
    swiss_standings,
)
from ...store.async_store import AsyncStore
from ...store.tournaments import StoredTournament

Hands = dict[int, list[dict[str, Any]]]
"""A round's stored hand summaries, by table."""


async def round_hands(store: AsyncStore, event: StoredTournament, number: int) -> Hands:
    """The hand summaries of each table of round ``number`` (from 1)."""
    return {t.table: await store.hand_summaries(t.code) for t in event.round_tables(number)}


def counted(event: StoredTournament, number: int, hands: Hands) -> int:
    """How many deals of round ``number`` count: those every one of its tables finished."""
    if not hands:
        return 0
    return min(len(summaries) for summaries in hands.values())


def played(event: StoredTournament, number: int, hands: Hands) -> list[Played]:
    """The counted hands of round ``number`` for the standings: in a duplicate each deal's own
    result, in a Swiss event the change the table's match booked (its pot included)."""
    duplicate = event.settings["format"] == Format.duplicate
    limit = counted(event, number, hands)
    seats = {t.table: t.entrants for t in event.round_tables(number)}
    lines = []
    for table, summaries in hands.items():
        entrants = tuple(str(e) for e in seats[table])
        for summary in summaries[:limit]:
            deltas = summary["result"]["deltas"] if duplicate else summary["deltas"]
            lines.append(Played(number, table, summary["number"] - 1,
                                (entrants[0], entrants[1], entrants[2], entrants[3]),
                                (deltas[0], deltas[1], deltas[2], deltas[3])))
    return lines


OVER_KEPT = 1024
"""Rounds over whose hands are kept in memory (a round over never changes)."""

_over: dict[tuple[str, int], list[Played]] = {}
"""The counted hands of each round over, by event and round (oldest first)."""


async def standings(store: AsyncStore, event: StoredTournament) -> tuple[list[Standing], int]:
    """The event's standings (entrants named by number) and the deals of the current round
    they count."""
    lines: list[Played] = []
    now = 0
    for number in range(1, event.round + 1):
        kept = _over.get((event.code, number))
        if kept is not None:
            lines += kept
            now = event.settings["hands"]
            continue
        hands = await round_hands(store, event, number)
        these = played(event, number, hands)
        lines += these
        now = counted(event, number, hands)
        if round_over(event, number, hands):
            _over[event.code, number] = these
            while len(_over) > OVER_KEPT:
                del _over[next(iter(_over))]
    fillers = {str(e.number) for e in event.entrants if e.filler}
    if event.settings["format"] == Format.duplicate:
        return duplicate_standings(lines, fillers), now
    return swiss_standings(lines, fillers, event.settings["points"]), now


def round_over(event: StoredTournament, number: int, hands: Hands) -> bool:
    """Whether every table of round ``number`` has played all its hands."""
    return bool(hands) and counted(event, number, hands) >= event.settings["hands"]
