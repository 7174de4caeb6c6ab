"""A mean with its 95% confidence interval: the arena's statistics."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
"""Normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval and the number of observations behind it."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of_means(cls, values: Sequence[float]) -> Estimate:
        """Mean of independent values (normal interval)."""
        n = len(values)
        if not n:
            return cls(None, None, None, 0)
        mean = statistics.fmean(values)
        if n < 2:
            return cls(mean, None, None, n)
        half = Z95 * statistics.stdev(values) / math.sqrt(n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_ratio(cls, sums: Sequence[float], counts: Sequence[int]) -> Estimate:
        """Ratio Σsums/Σcounts over clusters (deals), with a cluster-robust interval."""
        total = sum(counts)
        if not total:
            return cls(None, None, None, 0)
        ratio = sum(sums) / total
        clusters = len(sums)
        if clusters < 2:
            return cls(ratio, None, None, total)
        residual = sum((s - ratio * c) ** 2 for s, c in zip(sums, counts, strict=True))
        variance = clusters / (clusters - 1) * residual / total**2
        half = Z95 * math.sqrt(variance)
        return cls(ratio, ratio - half, ratio + half, total)

    @classmethod
    def of_estimates(cls, parts: Sequence[Estimate]) -> Estimate:
        """The mean of the values behind several :meth:`of_means` estimates of disjoint samples,
        as if they were one sample: each part's count, mean and interval give its values' sum
        and sum of squares exactly (to their rounding), so a run whose rows are lost still pools
        with one whose rows are kept."""
        if any(part.mean is None or part.low is None or part.high is None for part in parts):
            raise ValueError("every part needs a mean and an interval (two values or more)")
        n = sum(part.n for part in parts)
        if not parts or n < 2:
            raise ValueError("pooling needs two values or more")
        total = squares = 0.0
        for part in parts:
            assert part.mean is not None and part.low is not None and part.high is not None
            stdev = (part.high - part.low) / (2 * Z95) * math.sqrt(part.n)
            total += part.n * part.mean
            squares += (part.n - 1) * stdev**2 + part.n * part.mean**2
        mean = total / n
        half = Z95 * math.sqrt(max(squares - n * mean**2, 0.0) / (n - 1) / n)
        return cls(mean, mean - half, mean + half, n)
