"""Deprecated: the 复盘's confirm stage is :mod:`baofen.review.confirm`; this name goes in the
next version."""

from __future__ import annotations

import warnings

from .review.confirm import (
    ALPHA,
    CATEGORIES,
    CHALLENGERS,
    CONFIRM,
    EXTENSIONS,
    PRUNE,
    SCREEN,
    WIDEN,
    Category,
    Verdict,
    Worlds,
    Z,
    categorize,
    confirm,
    rivals,
    undecided,
)

__all__ = [
    "ALPHA",
    "CATEGORIES",
    "CHALLENGERS",
    "CONFIRM",
    "EXTENSIONS",
    "PRUNE",
    "SCREEN",
    "WIDEN",
    "Category",
    "Verdict",
    "Worlds",
    "Z",
    "categorize",
    "confirm",
    "rivals",
    "undecided",
]

warnings.warn("baofen.analysis_confirm is renamed baofen.review.confirm", DeprecationWarning,
              stacklevel=2)
