"""One table: its match and log, its seats, its views and its timers (:class:`Table`, made of
them), the driver that moves it on, and the help a player may ask of it."""

from .seats import Seat, TableError
from .table import Table

__all__ = ["Seat", "Table", "TableError"]
