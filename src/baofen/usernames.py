"""Deprecated: moved to :mod:`baofen.accounts.usernames`; this re-export goes in the next
version."""

import warnings

from .accounts.usernames import *  # noqa: F403

warnings.warn(
    "baofen.usernames moved to baofen.accounts.usernames; import it from there",
    DeprecationWarning,
    stacklevel=2,
)
