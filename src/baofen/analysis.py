"""Deprecated: the 复盘 (post-game review) is :mod:`baofen.review`; this name goes in the next
version."""

from __future__ import annotations

import warnings

from .review import *  # noqa: F403
from .review import __all__ as __all__

warnings.warn("baofen.analysis is renamed baofen.review", DeprecationWarning, stacklevel=2)
