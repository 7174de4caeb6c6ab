"""What a table shows: after every change, the seat to act's deadline, then each connection's
view of its seat (the ``state`` message, or a patch of the one before it), and the table's
public information (what REST and the lobby serve).

:class:`TableViews` is the part of :class:`~baofen.server.tables.Table` that renders and sends;
it reads the seats (:class:`.seating.Seating`) and the match, and changes neither.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..actions import Action
from ..record import action_json
from ..wire.observation import ObservationView, SharedView
from ..wire.table import TableInfo
from ..wire.tricks import TrickViews
from .connections import Answer, Connection, View, Views
from .seating import Seating
from .views import Parts, table_data


class TableViews(Seating):
    """The views of a :class:`~baofen.server.tables.Table` (a part of it, not used alone)."""

    created: float

    def _start_views(self) -> None:
        self.deadline: float | None = None
        """Unix time at which the seat to act times out (between hands: at which the players
        who have not pressed 继续 are made ready), or None."""
        self.ready: set[int] = set()
        """Between hands: the seats whose players pressed 继续 (ready)."""
        self.connections = set()
        self.views = Views()
        """The views sent to the connections, numbered (see :class:`Views`)."""
        self.quiet_since = time.monotonic()
        """When the last connection closed (the lobby stops listing a table left alone)."""
        self.active = self.created
        """Unix time of the last change (or connection)."""
        self.changed = asyncio.Event()
        """Set on every change; the table's driver waits on it."""
        self._turn: tuple[int, int | None] | None = None
        # No stopper of a failed throw: only the throw's cards are public (docs/rules.md §2), as
        # in the computers' Observation.
        self._tricks = TrickViews()
        self._parts = Parts()
        self._public: TableInfo | None = None
        self._publish_info()

    @property
    def between_hands(self) -> bool:
        """True while a finished hand waits for the next deal (the match decides)."""
        raise NotImplementedError

    def publish(self, answer: Answer | None = None) -> None:
        """After any change: the seat to act's timer, a broadcast (carrying ``answer``, the
        ack of the action that made the change), and a nudge to the driver."""
        self._refresh_deadline()
        self.active = time.time()
        self.broadcast(answer)
        self.changed.set()

    def _refresh_deadline(self) -> None:
        match = self.match
        seat = match.hand.to_act if match is not None and self.status == "playing" else None
        if self.between_hands:
            # One player may take all the time they want; several wait for each other so long.
            timer = self.settings.ready_seconds if len(self.present()) > 1 else None
        elif seat is None or self.computer_plays(seat):
            timer = None
        else:
            assert match is not None
            timer = self.settings.turn_seconds(match.hand.phase)
        if timer is None:
            self.deadline, self._turn = None, None
            return
        turn = (self.version, seat)
        if turn != self._turn:
            self._turn = turn
            self.deadline = time.time() + timer

    def broadcast(self, answer: Answer | None = None) -> None:
        """Send every connection its view (the table's information is built once for all,
        and what every seat sees alike), ``answer``'s connection with its ack."""
        table = self._publish_info()
        change = _Change()
        self.views.broadcast(
            self.connections, lambda seat: self._view(seat, table, change), answer
        )

    def send_state(self, connection: Connection) -> None:
        """Send one connection its whole view (after it joined, or asked with ``sync``)."""
        self.views.send(connection, self._view(connection.view_seat, self._info, _Change()))

    def state(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message (:class:`~baofen.wire.messages.State`) for ``seat``
        (``None``: a spectator) as JSON data, built directly."""
        return self._view(seat, self._info_data(), _Change()).message()

    def _view(self, seat: int | None, table: dict[str, Any], change: _Change) -> View:
        """``seat``'s view with the table's information ``table``; ``change`` holds what
        the views of one change have alike, made by the first view that needs it."""
        if self.match is None:
            return View(seat, table, None, None, None)
        seen = self.match.hand.observation(seat)
        if change.shared is None:
            change.shared = ObservationView.shared(seen, self._tricks)
        last = None
        if seen.actions:  # the seat's own: a bury shows to the declarer only
            action = seen.actions[-1]
            if action is not change.action:
                change.action, change.last = action, action_json(*action)
            last = change.last
        own = ObservationView.own(seen, change.shared, self.settings.card_counter)
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

    def _publish_info(self) -> dict[str, Any]:
        """Make the table's information now the published one (:attr:`public`)."""
        self._info = self._info_data()
        self._public = None
        return self._info

    def _info_data(self) -> dict[str, Any]:
        """Public information of the table, as JSON data."""
        return table_data(self, self._history, self._parts)


class _Change:
    """What the views of one change have alike: the shared part of the observation, and the
    last action's JSON data (the same action for every seat but the declarer after a bury)."""

    __slots__ = ("action", "last", "shared")

    def __init__(self) -> None:
        self.shared: SharedView | None = None
        self.action: tuple[int, Action] | None = None
        self.last: dict[str, Any] | None = None
