"""Who plays whom each round of a tournament, in either format.

- 复式 (duplicate individual): each round the entrants are shuffled (from the event's seed and the
  round) and seated four to a table with no repeat meeting while one can be avoided, each on the
  seat they have played least; every table then plays the same deals.
- 瑞士移位 (Swiss): the first round is seated as a shuffle too; each later round groups the
  entrants by standing, the top four at table 1 and so on, again with no avoidable repeat.

Computer fillers make the entrants up to a multiple of four; in a Swiss event they sit at the
bottom of the order, so that they take the last tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from .seating import SEATS, History, Table, rotate_round, seat_round
from .standings import Standing

FILLER = "computer-{}"
"""The names of computer fillers, numbered from 1."""


class Format(StrEnum):
    """A tournament's format."""

    duplicate = "duplicate"
    """复式: every table plays the same deals; matchpoints across tables."""
    swiss = "swiss"
    """瑞士移位: grouped by standing; table ranks give tournament points."""


def fillers_for(entrants: Sequence[str]) -> list[str]:
    """The computer fillers that make ``entrants`` fill their tables (none, or one to three)."""
    need = -len(entrants) % SEATS
    if len(entrants) + need < SEATS:
        need = SEATS - len(entrants)
    names = set(entrants)
    fillers: list[str] = []
    number = 1
    while len(fillers) < need:
        name = FILLER.format(number)
        if name not in names:
            fillers.append(name)
        number += 1
    return fillers


def round_seed(seed: int, round_number: int) -> int:
    """The match seed of round ``round_number`` of an event seeded ``seed``: every table of the
    round plays its match from it, so deal ``d`` of the round is the same cards everywhere."""
    return random.Random(f"tournament-deals:{seed}:{round_number}").getrandbits(63)


def round_tables(
    form: Format,
    entrants: Sequence[str],
    fillers: Sequence[str],
    history: History,
    standings: Sequence[Standing],
    number: int,
    seed: int,
) -> list[Table]:
    """The tables of round ``number`` (from 0), recorded in ``history``."""
    if not entrants:
        raise ValueError("a tournament needs at least one entrant")
    if (len(entrants) + len(fillers)) % SEATS:
        raise ValueError("the entrants and fillers do not fill whole tables")
    shuffle = random.Random(f"tournament-round:{seed}:{number}")
    if form is Format.duplicate:
        order = [*entrants, *fillers]
        shuffle.shuffle(order)
    elif number == 0 or not standings:
        order = list(entrants)
        shuffle.shuffle(order)
        order += fillers
    else:
        placed = [line.entrant for line in standings if not line.filler]
        unplaced = [e for e in entrants if e not in set(placed)]  # none in a running event
        order = [*placed, *unplaced, *fillers]
    place = rotate_round if form is Format.duplicate else seat_round
    tables = place(order, history, ignore=fillers)
    history.record(tables)
    return tables
