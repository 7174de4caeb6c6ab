"""Deprecated: the 复盘's confirm stage is :mod:`baofen.review.confirm`; this name goes in the
next version."""

import warnings

from .review.confirm import *  # noqa: F403

warnings.warn("baofen.analysis_confirm is renamed baofen.review.confirm", DeprecationWarning,
              stacklevel=2)
