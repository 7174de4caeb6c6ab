"""Deprecated: moved to :mod:`baofen.research.ray_runner`; this re-export goes in the next
version."""

import warnings

from .research.ray_runner import *  # noqa: F403

warnings.warn(
    "baofen.ray_runner moved to baofen.research.ray_runner; import it from there",
    DeprecationWarning,
    stacklevel=2,
)
