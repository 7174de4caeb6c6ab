"""Tournaments' pure logic: seating (no avoidable repeat meeting), seat rotation, standings."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baofen.competition.schedule import Format, fillers_for, round_tables
from baofen.competition.seating import History, group, repeats, seat
from baofen.competition.standings import (
    Played,
    Standing,
    duplicate_standings,
    swiss_standings,
    table_points,
)


def _partitions(players: list[str]) -> list[list[list[str]]]:
    """Every way to split ``players`` into tables of four (brute force, for small fields)."""
    if not players:
        return [[]]
    head, rest = players[0], players[1:]
    found = []
    for mates in combinations(rest, 3):
        left = [p for p in rest if p not in mates]
        found += [[[head, *mates], *tables] for tables in _partitions(left)]
    return found


@st.composite
def _field(draw: st.DrawFn) -> tuple[list[str], History, list[str]]:
    """A field of 4–12 entrants, a history of earlier random rounds, a standing order."""
    size = draw(st.sampled_from([4, 8, 12]))
    players = [f"p{i}" for i in range(size)]
    history = History()
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 3))):
        order = players[:]
        rng.shuffle(order)
        history.record(tuple(order[i:i + 4]) for i in range(0, size, 4))  # type: ignore[misc]
    order = draw(st.permutations(players))
    return players, history, list(order)


@settings(max_examples=150, deadline=None)
@given(_field())
def test_no_repeat_meeting_while_one_can_be_avoided_and_fewest_otherwise(
        field: tuple[list[str], History, list[str]]) -> None:
    players, history, order = field
    tables = group(order, history)
    assert sorted(p for t in tables for p in t) == sorted(players)
    assert all(len(t) == 4 for t in tables)
    # No repeat meeting while one can be avoided; otherwise as few as any seating has.
    assert repeats(tables, history) == min(repeats(p, history) for p in _partitions(players))


def test_swiss_groups_by_standing() -> None:
    order = [f"p{i}" for i in range(8)]
    assert group(order, History()) == [order[:4], order[4:]]


def test_a_met_player_moves_down_a_table() -> None:
    history = History()
    history.record([("p0", "p1", "x0", "x1")])
    tables = group([f"p{i}" for i in range(8)], history)
    assert tables[0] == ["p0", "p2", "p3", "p4"]


def test_fillers_are_no_obstacle() -> None:
    history = History()
    history.record([("a", "c1", "c2", "c3")])
    assert group(["a", "c1", "c2", "c3"], history, ignore={"c1", "c2", "c3"}) == [
        ["a", "c1", "c2", "c3"]]


def test_seats_rotate_to_the_least_played() -> None:
    history = History()
    history.record([("a", "b", "c", "d")])
    assert seat(["a", "b", "c", "d"], history) != ("a", "b", "c", "d")
    placed = seat(["a", "b", "c", "d"], history)
    assert all(placed[s] != p for s, p in enumerate("abcd"))


def test_a_duplicate_schedule_meets_new_opponents_on_new_seats() -> None:
    entrants = [f"p{i}" for i in range(20)]
    history = History()
    for number in range(4):
        round_tables(Format.duplicate, entrants, [], history, [], number, seed=7)
    assert all(len(met) == 12 for met in history.met.values())  # 3 new opponents a round
    assert all(set(c.values()) == {1} for c in history.seats.values())  # four seats, once each


def test_fillers_make_whole_tables_and_sit_at_the_bottom_in_swiss() -> None:
    entrants = [f"p{i}" for i in range(6)]
    fillers = fillers_for(entrants)
    assert fillers == ["computer-1", "computer-2"]
    assert fillers_for(["a"]) == ["computer-1", "computer-2", "computer-3"]
    assert fillers_for(["computer-1", "b", "c"]) == ["computer-2"]
    standings = [Standing(e, False, i + 1, 0, 0, 1) for i, e in enumerate(entrants)]
    tables = round_tables(Format.swiss, entrants, fillers, History(), standings, 1, seed=0)
    assert set(tables[1]) >= set(fillers)
    assert set(tables[0]) == {"p0", "p1", "p2", "p3"}


def test_table_points_share_ties() -> None:
    assert table_points([10, 30, 20, 0]) == [1, 4, 2, 0]
    assert table_points([30, 30, 0, -5]) == [3, 3, 1, 0]
    assert table_points([5, 5, 5, 5], (3, 2, 1, 0)) == [1.5] * 4
    with pytest.raises(ValueError, match="points for 4 ranks"):
        table_points([1, 2, 3, 4], (1, 0))


def test_swiss_standings_points_then_score_and_fillers_unranked() -> None:
    played = [
        Played(0, 0, 0, ("a", "b", "c", "f"), (30, 10, -10, -30)),
        Played(0, 0, 1, ("a", "b", "c", "f"), (-20, 10, 10, 0)),
    ]
    lines = swiss_standings(played, fillers={"f"})
    # totals: a 10, b 20, c 0, f -30 → b 4, a 2, c 1, f 0
    assert [(s.entrant, s.rank, s.points, s.score) for s in lines] == [
        ("b", 1, 4, 20), ("a", 2, 2, 10), ("c", 3, 1, 0), ("f", None, 0, -30)]
    assert lines[-1].filler


def test_duplicate_standings_compare_the_same_seat_across_tables() -> None:
    played = [
        Played(0, 0, 0, ("a", "b", "c", "d"), (20, -20, 0, 0)),
        Played(0, 1, 0, ("e", "f", "g", "h"), (10, -10, 0, 0)),
    ]
    lines = {s.entrant: s for s in duplicate_standings(played)}
    assert lines["a"].points == 100 and lines["e"].points == 0
    assert lines["b"].points == 0 and lines["f"].points == 100
    assert lines["c"].points == 50 and lines["c"].rank == lines["d"].rank == lines["g"].rank


def test_a_large_duplicate_field_never_meets_twice() -> None:
    entrants = [f"p{i}" for i in range(256)]
    history = History()
    for number in range(8):
        tables = round_tables(Format.duplicate, entrants, [], history, [], number, seed=1)
        assert len(tables) == 64
    assert all(len(met) == 24 for met in history.met.values())
    assert all(max(c.values()) == 2 for c in history.seats.values())  # every seat twice


def test_a_duplicate_round_keeps_its_entrants() -> None:
    history = History()
    round_tables(Format.duplicate, list("abcd"), [], history, [], 0, seed=0)
    with pytest.raises(ValueError, match="keeps its entrants"):
        round_tables(Format.duplicate, list("abce"), [], history, [], 1, seed=0)
