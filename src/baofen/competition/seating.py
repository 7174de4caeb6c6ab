"""Seating a tournament round: entrants grouped four to a table, and each table's seats.

Both formats seat through here: the Swiss event (瑞士移位) groups by standing, the duplicate
individual (复式) by a shuffled order; both keep players from meeting again while that can be
avoided, and turn each player to the seats they have played least.

A round's grouping is searched depth first in the given order of preference: the first entrant
still unseated heads the next table and takes, from those after them in the order, the first
three who have met neither them nor each other. Where that dead-ends, the search backs up, so a
grouping with no repeat meeting is found whenever one exists (within ``budget`` steps, far more
than a real event needs); where every grouping repeats, the search allows one repeat, then two,
…, so the grouping has as few as can be. Past the budget the tables are filled greedily, each
taking the next entrants with the fewest repeats. Computer fillers (``ignore``) are never an
obstacle: meeting the same filler twice does not count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

SEATS = 4
"""Players at a table."""

BUDGET = 200_000
"""Search steps a round's grouping may take before the greedy fallback."""

Table = tuple[str, str, str, str]
"""A table's entrants by seat (seat 0 first)."""


@dataclass
class History:
    """Who has met whom and who has played which seat, over the rounds seated so far."""

    met: dict[str, set[str]] = field(default_factory=dict)
    seats: dict[str, Counter[int]] = field(default_factory=dict)
    rounds: list[list[Table]] = field(default_factory=list)

    def record(self, tables: Iterable[Table]) -> None:
        """Add a round's tables to the history."""
        self.rounds.append(list(tables))
        for table in self.rounds[-1]:
            for seat, entrant in enumerate(table):
                self.seats.setdefault(entrant, Counter())[seat] += 1
                self.met.setdefault(entrant, set()).update(e for e in table if e != entrant)

    def have_met(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` have sat at one table."""
        return b in self.met.get(a, ())


def repeats(tables: Iterable[Sequence[str]], history: History,
            ignore: Collection[str] = ()) -> int:
    """How many pairs at ``tables`` have met before (pairs with a filler in ``ignore`` aside)."""
    return sum(
        1
        for table in tables
        for a, b in combinations(table, 2)
        if a not in ignore and b not in ignore and history.have_met(a, b)
    )


def group(order: Sequence[str], history: History, ignore: Collection[str] = (),
          budget: int = BUDGET, seats: Mapping[str, int] | None = None) -> list[list[str]]:
    """``order`` (entrants, most preferred first) grouped four to a table, tables in order.

    With ``seats`` (entrant → seat this round), each table is formed in seat order, one entrant
    of each seat; the order then only says who heads each table and who is tried first."""
    if len(order) % SEATS:
        raise ValueError(f"{len(order)} entrants do not fill tables of {SEATS}; add fillers")
    if len(set(order)) != len(order):
        raise ValueError("an entrant is listed twice")
    ignored = frozenset(ignore)

    def clash(a: str, b: str) -> bool:
        return a not in ignored and b not in ignored and history.have_met(a, b)

    steps = 0

    def search(remaining: list[str], allowed: int) -> list[list[str]] | None:
        """A grouping of ``remaining`` with at most ``allowed`` repeat meetings, or None."""
        if not remaining:
            return []

        def fill(table: list[str], start: int, left: int) -> list[list[str]] | None:
            nonlocal steps
            if len(table) == SEATS:
                tables = search([e for e in remaining if e not in table], left)
                return None if tables is None else [table, *tables]
            for i in range(1 if seats else start, len(remaining)):
                steps += 1
                if steps > budget:
                    return None
                candidate = remaining[i]
                if seats and seats[candidate] != len(table):
                    continue
                repeated = sum(clash(candidate, seated) for seated in table)
                if repeated > left:
                    continue
                found = fill([*table, candidate], i + 1, left - repeated)
                if found is not None:
                    return found
            return None

        return fill([remaining[0]], 1, allowed)

    if seats:
        if sorted(Counter(seats[e] for e in order).values()) != [len(order) // SEATS] * SEATS:
            raise ValueError("each seat needs as many entrants as there are tables")
        order = sorted(order, key=lambda e: seats[e] != 0)  # a table's head sits in seat 0
    # No repeat if that can be, else as few as can be: the fewest allowed first.
    for allowed in range(len(order) * (SEATS - 1) // 2 + 1):
        found = search(list(order), allowed)
        if found is not None:
            return found
        if steps > budget:
            break
    return _greedy(list(order), clash, seats)


def _greedy(remaining: list[str], clash: Callable[[str, str], bool],
            seats: Mapping[str, int] | None) -> list[list[str]]:
    """Tables filled head first, each taking the next three (of the seat's entrants, with
    ``seats``) with the fewest clashes."""
    tables: list[list[str]] = []
    while remaining:
        table = [remaining.pop(0)]
        while len(table) < SEATS:
            best = min((i for i, e in enumerate(remaining)
                        if not seats or seats[e] == len(table)),
                       key=lambda i: (sum(clash(remaining[i], s) for s in table), i))
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def seat(players: Sequence[str], history: History) -> Table:
    """The players of one table in seats: each on the seat they have played least (ties kept
    in the given order, so a first round seats them as listed)."""
    if len(players) != SEATS:
        raise ValueError(f"a table seats {SEATS} players, not {len(players)}")

    def cost(arrangement: tuple[str, ...]) -> int:
        return sum(history.seats.get(p, Counter())[s] ** 2 for s, p in enumerate(arrangement))

    best = min(permutations(players), key=cost)  # permutations come in the given order first
    return (best[0], best[1], best[2], best[3])


def seat_round(order: Sequence[str], history: History,
               ignore: Collection[str] = ()) -> list[Table]:
    """A whole round: ``order`` grouped (:func:`group`) and each table seated (:func:`seat`)."""
    return [seat(players, history) for players in group(order, history, ignore)]


def rotate_round(order: Sequence[str], history: History,
                 ignore: Collection[str] = ()) -> list[Table]:
    """A duplicate round: each entrant one seat on from the last round's, so that over four
    rounds they play every seat once, and among new opponents.

    The first round is seated as :func:`seat_round`. Round ``r`` then moves the entrant of the
    first round's table ``t`` and seat ``s`` to table ``t + s·r`` (modulo the tables), seat
    ``s + r``: each table again takes one entrant of each seat, and two entrants meet twice only
    where the number of tables divides ``d·k`` (``d`` their seats' difference, 1–3, ``k`` the
    rounds between), never while the tables outnumber three times the rounds. Where they meet
    again all the same (a small field), the round is searched for instead (:func:`group`),
    first keeping the seats, then freely, and the seating with the fewest repeats is kept."""
    if not history.rounds:
        return seat_round(order, history, ignore)
    first, number = history.rounds[0], len(history.rounds)
    if sorted(order) != sorted(e for table in first for e in table):
        raise ValueError("a duplicate event keeps its entrants from round to round")
    count = len(first)
    moved: list[list[str]] = [[""] * SEATS for _ in range(count)]
    for t, table in enumerate(first):
        for s, entrant in enumerate(table):
            moved[(t + s * number) % count][(s + number) % SEATS] = entrant
    choices = [moved]
    if repeats(moved, history, ignore):
        last = {e: s for table in history.rounds[-1] for s, e in enumerate(table)}
        choices.append(group(order, history, ignore, seats={e: (last[e] + 1) % SEATS
                                                            for e in order}))
        choices.append([list(seat(t, history)) for t in group(order, history, ignore)])
    best = min(choices, key=lambda tables: repeats(tables, history, ignore))
    return [(t[0], t[1], t[2], t[3]) for t in best]
