"""Deprecated: the table is :mod:`baofen.server.table` now (``Table`` in
:mod:`baofen.server.table.table`)."""

import warnings

from .table.log import Status
from .table.table import Driver, Table

warnings.warn("baofen.server.tables is now baofen.server.table", DeprecationWarning,
              stacklevel=2)

__all__ = ["Driver", "Status", "Table"]
