"""What a table shows: each connection's view of its seat (the ``state`` message, or a patch of
the one before it), and the table's public information (what REST and the lobby serve).

:class:`TableViews` is the part of a :class:`~.table.Table` that renders and sends; it reads
the table (its seats, its match, its clocks) and changes nothing of it.
"""

from __future__ import annotations

from typing import Any

from ...actions import Action
from ...record import action_json
from ...wire.observation import ObservationView, SharedView
from ...wire.table import TableInfo
from ...wire.tricks import TrickViews
from ..transport.broadcast import Answer, Broadcaster, View
from ..transport.connections import Connection
from .info import InfoParts, ShownTable, table_data


class TableViews:
    """The views of one table: rendered from it, numbered, and sent to its connections."""

    def __init__(self, table: ShownTable) -> None:
        self.table = table
        self.sent = Broadcaster()
        """The views sent to the connections, numbered (see :class:`Broadcaster`)."""
        # No stopper of a failed throw: only the throw's cards are public (docs/rules.md §2), as
        # in the computers' Observation.
        self.tricks = TrickViews()
        """The finished tricks' views, each made once."""
        self._parts = InfoParts()
        self._info: dict[str, Any] = {}
        self._public: TableInfo | None = None

    def broadcast(self, answer: Answer | None = None) -> None:
        """Send every connection its view (the table's information is built once for all,
        and what every seat sees alike), ``answer``'s connection with its ack. Nothing once
        the table is no longer this node's (:meth:`serving`)."""
        if not self.serving():
            return
        table = self.publish_info()
        change = _Change()
        self.sent.broadcast(
            self.table.seating.connections, lambda seat: self._view(seat, table, change), answer
        )

    def send_state(self, connection: Connection) -> None:
        """Send one connection its whole view (after it joined, or asked with ``sync``), with
        the table's information as it is now: the one last broadcast may be older than the
        match (read back from the store), and a view must never pair one version's number
        with another's cards."""
        if self.serving():
            self.sent.send(connection,
                           self._view(connection.view_seat, self._info_data(), _Change()))

    def serving(self) -> bool:
        """True while views may leave: the table is served here and, in a cluster, this node
        still holds its fencing number. A node that lost the table (its lease taken, a write
        refused) may hold in memory what the database does not; its clients reconnect and
        are shown the new owner's views instead."""
        return not self.table.closed and self.table.log.owned

    def state(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message (:class:`~baofen.wire.messages.State`) for ``seat``
        (``None``: a spectator) as JSON data, built directly."""
        return self._view(seat, self._info_data(), _Change()).message()

    def _view(self, seat: int | None, table: dict[str, Any], change: _Change) -> View:
        """``seat``'s view with the table's information ``table``; ``change`` holds what
        the views of one change have alike, made by the first view that needs it."""
        match = self.table.match
        if match is None:
            return View(seat, table, None, None, None)
        seen = match.hand.observation(seat)
        if change.shared is None:
            change.shared = ObservationView.shared(seen, self.tricks)
        last = None
        if seen.actions:  # the seat's own: a bury shows to the declarer only
            action = seen.actions[-1]
            if action is not change.action:
                change.action, change.last = action, action_json(*action)
            last = change.last
        own = ObservationView.own(seen, change.shared, self.table.settings.card_counter)
        return View(seat, table, change.shared, own, last)

    @property
    def public(self) -> TableInfo:
        """The table's information as last published (what REST serves)."""
        if self._public is None:
            self._public = TableInfo.model_validate(self._info)
        return self._public

    @public.setter
    def public(self, info: TableInfo) -> None:
        self._public = info

    def publish_info(self) -> dict[str, Any]:
        """Make the table's information now the published one (:attr:`public`)."""
        self._info = self._info_data()
        self._public = None
        return self._info

    def _info_data(self) -> dict[str, Any]:
        """Public information of the table, as JSON data."""
        return table_data(self.table, self._parts)


class _Change:
    """What the views of one change have alike: the shared part of the observation, and the
    last action's JSON data (the same action for every seat but the declarer after a bury)."""

    __slots__ = ("action", "last", "shared")

    def __init__(self) -> None:
        self.shared: SharedView | None = None
        self.action: tuple[int, Action] | None = None
        self.last: dict[str, Any] | None = None
