"""The 复盘's verdict on a move: paired statistics of its options on common worlds, which
options the move is confirmed against, how many worlds that takes, and the loss's category.

:mod:`baofen.review` draws the worlds and plays the options out; this module only reads the
values it gets (the standard library only). A decision's options are first valued on a few
common worlds (the *screen*); :func:`rivals` picks the options the made move is then compared
with on fresh common worlds, and :func:`confirm` draws worlds until the verdict is decided:

- the options compared are those the screen put above the move made, and those it could not
  tell from it by the inaccuracy threshold (the upper bound of their gain reaches it: a screen
  close or noisy, below the move as well as above it);
- the first batch picks the best of them; more worlds are drawn for that one alone, a batch at
  a time, while a category's threshold lies within the loss's interval (:func:`undecided`);
- a move is in a category only where its loss's one-sided lower bound (95%, paired over the
  common worlds, Bonferroni over the options compared) reaches that category's threshold
  (:func:`categorize`): its loss both over the threshold and told from noise. A loss measured
  near a threshold stays below it, so that two reviews on other worlds flag the same moves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from statistics import NormalDist
from typing import Literal

Category = Literal["", "inaccuracy", "mistake", "blunder"]
"""How bad a move is: nothing, 不精确, 失误, 大错."""

CATEGORIES: tuple[Category, ...] = ("inaccuracy", "mistake", "blunder")

CONFIRM = 2
"""Each batch of the confirm stage draws this many times the screen's worlds."""

EXTENSIONS = 47
"""Batches the confirm stage draws at most after its first, while the verdict is undecided
(:func:`undecided`): 48 batches, 1536 worlds at the standard level's 16 a stage (a loss near a
threshold is told apart on as many worlds as it takes two reviews to agree on it more often;
768 left one flagged move in four flagged by one review only)."""

SCREEN = 0.3
"""The confirm stage runs when the screen's loss reaches this share of the inaccuracy
threshold (lower than the threshold itself: the screen's few worlds may underestimate it), or
an option's gain over the move made has an upper bound reaching the threshold itself."""

ALPHA = 0.05
"""A loss's one-sided lower bound (and a gain's upper bound) at 1 − ALPHA (Bonferroni over the
options the move is compared with)."""

Z = NormalDist().inv_cdf(1.0 - ALPHA)
"""One-sided 95% normal quantile (1.645)."""

CHALLENGERS = 3
"""Options the confirm stage compares the made move with at most (best first)."""

PRUNE = 2
"""Batches after which the confirm stage draws only the best option so far and the move made."""

WIDEN = 0.25
"""Before its last batch, the confirm stage stops only when the loss's interval, widened by
(most worlds / worlds drawn) ** WIDEN, is clear of every threshold: a verdict taken early must
be clearer. Looked at after every batch, a loss near a threshold would otherwise cross it by
chance on some batch, one way in one review and the other in the next."""


class Worlds:
    """Per-world values of options on common weighted worlds, and paired statistics."""

    def __init__(self) -> None:
        self.weights: list[float] = []
        self.values: list[list[float]] = []

    def __len__(self) -> int:
        return len(self.weights)

    def add(self, weight: float, values: list[float]) -> None:
        """One more world: its weight and the value of each option in it."""
        self.weights.append(weight)
        self.values.append(values)

    def extend(self, other: Worlds) -> None:
        """The worlds of ``other`` added to these (their options in the same order)."""
        self.weights += other.weights
        self.values += other.values

    def keep(self, columns: Sequence[int]) -> Worlds:
        """The same worlds with the values of ``columns`` only, in that order."""
        out = Worlds()
        for weight, row in zip(self.weights, self.values, strict=True):
            out.add(weight, [row[i] for i in columns])
        return out

    def mean(self, i: int) -> float:
        """The weighted mean value of option ``i``."""
        mass = sum(self.weights)
        return sum(w * v[i] for w, v in zip(self.weights, self.values, strict=True)) / mass

    def paired(self, better: int, made: int, z: float = Z) -> tuple[float, float]:
        """The weighted mean of ``values[better] − values[made]`` and its one-sided lower bound
        at ``z`` standard errors (95% by default; the standard error from the weighted variance
        and the worlds' effective number)."""
        weights = self.weights
        diffs = [v[better] - v[made] for v in self.values]
        mass = sum(weights)
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / mass
        if all(d == diffs[0] for d in diffs):  # the same difference in every world
            return mean, mean
        effective = mass * mass / sum(w * w for w in weights)
        if effective <= 1.0 + 1e-9:
            return mean, -math.inf
        variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / mass
        se = math.sqrt(variance / (effective - 1.0))
        return mean, mean - z * se


def rivals(screen: Worlds, chosen: int, others: Iterable[int], limit: float) -> list[int]:
    """The options of ``others`` (indices of ``screen``'s values) the confirm stage compares
    the made move ``chosen`` with, best first, :data:`CHALLENGERS` at most: those the screen
    put above it, or could not tell from it by the inaccuracy threshold ``limit`` (their gain's
    one-sided upper bound at :data:`Z` reaches it). Empty (the stage does not run) unless one's
    gain reaches :data:`SCREEN` of the threshold or its upper bound the threshold itself."""
    gains = {i: screen.paired(i, chosen) for i in others if i != chosen}
    reach = {i: 2.0 * gain - low >= limit for i, (gain, low) in gains.items()}
    if not any(reach[i] or gain >= SCREEN * limit for i, (gain, _) in gains.items()):
        return []
    close = [i for i, (gain, _) in gains.items() if gain > 0.0 or reach[i]]
    return sorted(close, key=lambda i: (-gains[i][0], i))[:CHALLENGERS]


Verdict = tuple[int, float, float, float, float, int]
"""What :func:`confirm` found: the best option (the made move's index when none is better),
the loss and its lower bound, the best's and the made move's values, the worlds drawn."""


def confirm(evaluate: Callable[[list[int], int], Worlds], compared: list[int], chosen: int,
            limits: dict[str, float], batch: int) -> Verdict:
    """The made move ``chosen`` against the options ``compared`` (:func:`rivals`) on fresh
    common worlds: ``evaluate(options, n)`` values the options (indices) on ``n`` new worlds.
    Batches of ``batch`` worlds are drawn while :func:`undecided` (its interval widened by
    (most worlds / worlds drawn) ** :data:`WIDEN`), :data:`EXTENSIONS` more at most; after
    :data:`PRUNE` batches only the best so far and the move made are drawn. The loss is the
    paired mean against the best, its lower bound at :data:`ALPHA`, Bonferroni over
    ``compared`` (the pick of the best is accounted for)."""
    z = NormalDist().inv_cdf(1.0 - ALPHA / len(compared))
    picked = [*compared, chosen]
    stats = evaluate(picked, batch)
    for drawn in range(1, EXTENSIONS + 2):
        top = max(range(len(picked) - 1), key=lambda i: (stats.mean(i), -i))
        loss, low = stats.paired(top, len(picked) - 1, z)
        if drawn >= PRUNE and len(picked) > 2:
            stats, picked, top = stats.keep([top, -1]), [picked[top], chosen], 0
        widen = ((EXTENSIONS + 1) / drawn) ** WIDEN
        if drawn > EXTENSIONS or not undecided(loss, low, limits, widen):
            break
        stats.extend(evaluate(picked, batch))
    better = loss > 0.0
    return (picked[top] if better else chosen, loss, low, stats.mean(top if better else -1),
            stats.mean(-1), len(stats))


def undecided(loss: float, low: float, limits: dict[str, float], widen: float = 1.0) -> bool:
    """True when more worlds could change a loss's category: a threshold (``limits``) lies
    within its interval, ``loss`` ± its distance to the lower bound ``low`` times ``widen``."""
    margin = (loss - low) * widen
    return any(abs(loss - limit) < margin for limit in limits.values())


def categorize(limits: dict[str, float], low: float) -> Category:
    """The category of a loss whose one-sided lower bound is ``low``: the worst one whose
    threshold (``limits``) the bound reaches — a move is in a category only where its loss is
    both over the threshold and told from noise, its interval clear of the threshold itself
    (not only of 0)."""
    category: Category = ""
    for name in CATEGORIES:
        if low >= limits[name]:
            category = name
    return category
