"""Deprecated: the 复盘 routes are :mod:`baofen.server.routes.reviews` now (their pool
:mod:`baofen.server.reviews.pool`)."""

import warnings

from .reviews.pool import Reviews
from .routes.reviews import LEVELS, get_review, router

warnings.warn("baofen.server.analysis is now baofen.server.routes.reviews", DeprecationWarning,
              stacklevel=2)

__all__ = ["LEVELS", "Reviews", "get_review", "router"]
