"""The 复盘's verdict on a move: paired statistics of its options on common worlds, which
options the move is confirmed against, how many worlds that takes, and the loss's category.

:mod:`baofen.review` draws the worlds and plays the options out; this module only reads the
values it gets (the standard library only). A decision's options are first valued on a few
common worlds (the *screen*); :func:`rivals` picks the options the made move is then compared
with on fresh common worlds, and :func:`confirm` draws worlds until the verdict is decided:

- the options compared are all the others, once the screen put one above the move made by a
  share of the inaccuracy threshold or could not tell one from it by that threshold (the upper
  bound of its gain reaches it);
- the first batches pick the best of them (an option is dropped once it is worse than the best
  so far, told from noise, and all but the best after :data:`PICK` batches); more worlds are
  drawn, a batch at a time, while a category's threshold lies within the loss's interval
  (:func:`undecided`);
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

EXTENSIONS = 95
"""Batches the confirm stage draws at most after its first, while whether the move is flagged
at all is undecided (:func:`undecided` for the inaccuracy threshold): 96 batches, 3072 worlds
at the standard level's 16 a stage (a loss near the threshold is told apart on as many worlds
as it takes two reviews to agree on it more often: 768 left one flagged move in four flagged by
one review only, 1536 about one in five)."""

CATEGORY_BATCHES = 48
"""Batches the confirm stage draws at most while only the category of a flagged move is
undecided (a higher threshold within the loss's interval, the inaccuracy one clear of it): 1536
worlds at the standard level (the worlds past them cost the most, and whether a move is
flagged is what two reviews must agree on first)."""

SCREEN = 0.3
"""The confirm stage runs when the screen's loss reaches this share of the inaccuracy
threshold (lower than the threshold itself: the screen's few worlds may underestimate it), or
an option's gain over the move made has an upper bound reaching the threshold itself."""

ALPHA = 0.05
"""A loss's one-sided lower bound (and a gain's upper bound) at 1 − ALPHA (Bonferroni over the
options the move is compared with)."""

Z = NormalDist().inv_cdf(1.0 - ALPHA)
"""One-sided 95% normal quantile (1.645)."""

PRUNE = 2
"""Batches after which the confirm stage stops drawing the options that are worse than the
best so far, told from noise (their paired difference's lower bound at :data:`Z` over 0)."""

PICK = 8
"""Batches after which the confirm stage draws only the best option so far and the move made
(the best picked on 256 worlds at the standard level: picked on 64, two reviews of a move
with two better options often compared it with a different one, one over a threshold and the
other under it)."""

WIDEN = 0.25
"""Before its last batch, the confirm stage stops only when the loss's interval, widened by
(most worlds / worlds drawn) ** WIDEN, is clear of every threshold: a verdict taken early must
be clearer. Looked at after every batch, a loss near a threshold would otherwise cross it by
chance on some batch, one way in one review and the other in the next."""

WIDEN_FLAG = 0.5
"""The same for the interval's lower side, the one a flag is taken on: widened by (most worlds
/ worlds drawn) ** WIDEN_FLAG, a spending of the 5% over the looks in the manner of O'Brien and
Fleming. With WIDEN on that side as well, a loss just over a threshold was flagged by the review
whose lower bound happened to cross it on one of some 40 looks, and left by the other, which
drew all its worlds (three of the five moves flagged by one review only, on hands the review
was developed on, were of this kind; the wider margin alone did not yet change them, the
worlds past 1536 did)."""


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
    the made move ``chosen`` with, best first: all of them (the screen's few worlds do not
    pick the best reliably: two reviews comparing the move with different options disagreed on
    it). Empty (the stage does not run) unless one's gain reaches :data:`SCREEN` of the
    inaccuracy threshold ``limit`` or its one-sided upper bound at :data:`Z` the threshold
    itself."""
    gains = {i: screen.paired(i, chosen) for i in others if i != chosen}
    if not any(2.0 * gain - low >= limit or gain >= SCREEN * limit
               for gain, low in gains.values()):
        return []
    return sorted(gains, key=lambda i: (-gains[i][0], i))


Verdict = tuple[int, float, float, float, float, int]
"""What :func:`confirm` found: the best option (the made move's index when none is better),
the loss and its lower bound, the best's and the made move's values, the worlds drawn."""


def confirm(evaluate: Callable[[list[int], int], Worlds], compared: list[int], chosen: int,
            limits: dict[str, float], batch: int) -> Verdict:
    """The made move ``chosen`` against the options ``compared`` (:func:`rivals`) on fresh
    common worlds: ``evaluate(options, n)`` values the options (indices) on ``n`` new worlds.
    Batches of ``batch`` worlds are drawn while :func:`undecided` (its interval widened by
    (most worlds / worlds drawn) ** :data:`WIDEN`, its lower side ** :data:`WIDEN_FLAG`),
    :data:`EXTENSIONS` more at most (from :data:`CATEGORY_BATCHES` on, only while the
    inaccuracy threshold is within it); from :data:`PRUNE` batches on, the options worse than the
    best so far (told from noise) are no longer drawn, and after :data:`PICK` batches only the
    best so far and the move made. The loss is the paired mean against the best, its lower
    bound at :data:`ALPHA`, Bonferroni over ``compared`` (the pick of the best is accounted
    for)."""
    z = NormalDist().inv_cdf(1.0 - ALPHA / len(compared))
    picked = [*compared, chosen]
    stats = evaluate(picked, batch)
    for drawn in range(1, EXTENSIONS + 2):
        top = max(range(len(picked) - 1), key=lambda i: (stats.mean(i), -i))
        loss, low = stats.paired(top, len(picked) - 1, z)
        if drawn >= PRUNE and len(picked) > 2:
            kept = [i for i in range(len(picked) - 1)
                    if i == top or (drawn < PICK and stats.paired(top, i)[1] <= 0.0)]
            if len(kept) < len(picked) - 1:
                stats, picked = stats.keep([*kept, -1]), [*(picked[i] for i in kept), chosen]
                top = kept.index(top)
        share = (EXTENSIONS + 1) / drawn
        deciding = limits if drawn < CATEGORY_BATCHES else {"flag": min(limits.values())}
        if drawn > EXTENSIONS or not undecided(loss, low, deciding, share ** WIDEN,
                                               share ** WIDEN_FLAG):
            break
        stats.extend(evaluate(picked, batch))
    better = loss > 0.0
    return (picked[top] if better else chosen, loss, low, stats.mean(top if better else -1),
            stats.mean(-1), len(stats))


def undecided(loss: float, low: float, limits: dict[str, float], widen: float = 1.0,
              widen_low: float | None = None) -> bool:
    """True when more worlds could change a loss's category: a threshold (``limits``) lies
    within its interval, from ``loss`` less its distance to the lower bound ``low`` times
    ``widen_low`` (default ``widen``) to ``loss`` plus that distance times ``widen``."""
    margin = loss - low
    below = margin * (widen if widen_low is None else widen_low)
    return any(loss - below < limit < loss + margin * widen for limit in limits.values())


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
