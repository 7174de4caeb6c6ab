"""Deprecated: moved to :mod:`baofen.accounts.ratings`; this re-export goes in the next
version."""

import warnings

from .accounts.ratings import *  # noqa: F403

warnings.warn(
    "baofen.ratings moved to baofen.accounts.ratings; import it from there",
    DeprecationWarning,
    stacklevel=2,
)
