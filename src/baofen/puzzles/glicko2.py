"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): the rating of puzzles and of
their solvers, as lichess rates its puzzles — each attempt is a game between the solver and the
puzzle, won by whoever the answer favours, and both are updated at once (a rating period of one
game).

Written here rather than taken from PyPI: the ``glicko2`` package there is unmaintained, and the
system is some fifty lines of arithmetic, checked against the paper's worked example in the
tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's scale: rating 1500 ± 173.7178·μ."""

TAU = 0.5
"""The system constant (volatility's change over time): the paper's example value."""

EPSILON = 1e-6
"""Convergence tolerance of the volatility's iteration."""

MIN_RD, MAX_RD = 45.0, 350.0
"""Bounds of a rating deviation: a rating never becomes certain, nor less than a new one."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD) and volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after a rating period of ``games`` (opponent, score: 1 a win, 0 a
    loss, 0.5 a draw); with no games only the deviation grows."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(MAX_RD, phi_star * SCALE), sigma)
    v_inv, delta_sum = 0.0, 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        v_inv += _g(phi_j) ** 2 * e * (1.0 - e)
        delta_sum += _g(phi_j) * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(1500.0 + SCALE * mu_new, phi_new * SCALE, sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of the paper's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def attempt(solver: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The solver's and the puzzle's ratings after one attempt (each a rating period of one
    game against the other's rating before it), deviations kept within
    [:data:`MIN_RD`, :data:`MAX_RD`]."""
    score = 1.0 if solved else 0.0
    new_solver = _bounded(rate(solver, [(puzzle, score)]))
    new_puzzle = _bounded(rate(puzzle, [(solver, 1.0 - score)]))
    return new_solver, new_puzzle


def _bounded(r: Rating) -> Rating:
    return Rating(r.rating, min(MAX_RD, max(MIN_RD, r.rd)), r.volatility)
