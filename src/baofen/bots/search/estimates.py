"""Estimates over a search's sampled worlds: the gate's one-sided lower confidence bound on a
paired difference (Student's t with the worlds' effective number, Kish's (Σw)²/Σw²)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def student_quantile(level: float, freedom: float) -> float:
    """The ``level`` quantile of Student's t with ``freedom`` degrees of freedom (Cornish–Fisher
    expansion about the normal quantile: within 1% for ``freedom`` ≥ 3 at the usual levels)."""
    z = NormalDist().inv_cdf(level)
    v = max(freedom, 1.0)
    z3, z5, z7 = z ** 3, z ** 5, z ** 7
    return (z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v ** 3))


def lower_bound(differences: Sequence[float], weights: Sequence[float], level: float) -> float:
    """One-sided lower confidence bound at ``level`` of the weighted mean of paired
    ``differences`` over worlds of ``weights`` (Student's t, with the worlds' effective number —
    Kish's (Σw)²/Σw² — less one as degrees of freedom); ``-inf`` with fewer than two effective
    worlds. Differences all 0 give 0: a challenger never better than the choice it is paired with
    is never confirmed."""
    mass = total = square = 0.0
    for w, d in zip(weights, differences, strict=True):
        mass += w
        total += w * d
        square += w * w
    if not differences or mass <= 0:
        return -math.inf
    mean = total / mass
    effective = mass * mass / square
    if effective < 2.0 - 1e-9:
        return -math.inf
    spread = 0.0
    for w, d in zip(weights, differences, strict=True):
        spread += w * (d - mean) ** 2
    variance = spread / mass * effective / (effective - 1.0)
    error = math.sqrt(max(variance, 0.0) / effective)
    return mean - student_quantile(level, effective - 1.0) * error
