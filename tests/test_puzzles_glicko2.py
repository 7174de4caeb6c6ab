"""Glicko-2 against the worked example of Glickman's paper, and the attempt's direction."""

from __future__ import annotations

import pytest

from baofen.puzzles.glicko2 import MAX_RD, Rating, attempt, rate


def test_the_papers_worked_example() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
             (Rating(1700.0, 300.0), 0.0)]
    after = rate(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_games_widens_the_deviation_only() -> None:
    after = rate(Rating(1500.0, 200.0, 0.06), [])
    assert after.rating == 1500.0
    assert after.rd == pytest.approx(200.2714, abs=1e-3)


def test_an_attempt_moves_solver_and_puzzle_opposite_ways() -> None:
    solver, puzzle = Rating(1500.0, 200.0), Rating(1600.0, 150.0)
    won_solver, won_puzzle = attempt(solver, puzzle, solved=True)
    lost_solver, lost_puzzle = attempt(solver, puzzle, solved=False)
    assert won_solver.rating > solver.rating > lost_solver.rating
    assert won_puzzle.rating < puzzle.rating < lost_puzzle.rating
    assert won_solver.rd < solver.rd <= MAX_RD
