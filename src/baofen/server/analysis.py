"""Deprecated: the 复盘 routes are :mod:`baofen.server.routes.reviews` now."""

import warnings

from .routes.reviews import LEVELS, Reviews, get_review, router

warnings.warn("baofen.server.analysis is now baofen.server.routes.reviews", DeprecationWarning,
              stacklevel=2)

__all__ = ["LEVELS", "Reviews", "get_review", "router"]
